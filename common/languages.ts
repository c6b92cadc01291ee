/**
 * The languages a thesis may be written in: ISO 639-3 codes with their English names, the
 * world's most used languages and those of the school's region (Ghana and West Africa). A short
 * committed list, not the whole standard: a school adds a row here when a thesis needs one.
 * https://iso639-3.sil.org/code_tables/639/data
 */
export const LANGUAGES: readonly { code: string; name: string }[] = [
  { code: "eng", name: "English" },
  { code: "fra", name: "French" },
  { code: "aka", name: "Akan" },
  { code: "twi", name: "Twi" },
  { code: "fat", name: "Fante" },
  { code: "ewe", name: "Ewe" },
  { code: "gaa", name: "Ga" },
  { code: "ada", name: "Dangme" },
  { code: "dag", name: "Dagbani" },
  { code: "gur", name: "Farefare" },
  { code: "kus", name: "Kusaal" },
  { code: "nzi", name: "Nzema" },
  { code: "gjn", name: "Gonja" },
  { code: "hau", name: "Hausa" },
  { code: "yor", name: "Yoruba" },
  { code: "ibo", name: "Igbo" },
  { code: "ful", name: "Fulah" },
  { code: "wol", name: "Wolof" },
  { code: "swa", name: "Swahili" },
  { code: "amh", name: "Amharic" },
  { code: "zul", name: "Zulu" },
  { code: "afr", name: "Afrikaans" },
  { code: "ara", name: "Arabic" },
  { code: "por", name: "Portuguese" },
  { code: "spa", name: "Spanish" },
  { code: "deu", name: "German" },
  { code: "ita", name: "Italian" },
  { code: "nld", name: "Dutch" },
  { code: "rus", name: "Russian" },
  { code: "zho", name: "Chinese" },
  { code: "jpn", name: "Japanese" },
  { code: "kor", name: "Korean" },
  { code: "hin", name: "Hindi" },
  { code: "ben", name: "Bengali" },
  { code: "urd", name: "Urdu" },
  { code: "tur", name: "Turkish" },
  { code: "fas", name: "Persian" },
  { code: "heb", name: "Hebrew" },
  { code: "lat", name: "Latin" },
  { code: "grc", name: "Ancient Greek" },
  { code: "ell", name: "Modern Greek" },
  { code: "pol", name: "Polish" },
  { code: "swe", name: "Swedish" },
  { code: "ind", name: "Indonesian" },
  { code: "vie", name: "Vietnamese" },
  { code: "mul", name: "Multiple languages" },
];

export const LANGUAGE_CODES: ReadonlySet<string> = new Set(LANGUAGES.map((l) => l.code));

export function languageName(code: string): string {
  return LANGUAGES.find((l) => l.code === code)?.name ?? code;
}
