/**
 * A local copy of the contract's `PublishedRecord` (docs: /work/briefs/pub-shared.md) until
 * `common/publication.ts` lands from the pub-core branch; then this file re-exports that one.
 */
export type EmbargoChoice = "none" | "6m" | "1y" | "2y" | "sensitive";

export interface PublishedRecord {
  submissionId: number;
  title: string;
  abstract: string;
  author: { name: string };
  keywords: string[];
  language: string;
  degree: { name: string; abbreviation: string; level: "masters" | "doctoral" };
  programme: string;
  department: string;
  supervisors: { name: string; orcid: string | null }[];
  examinationDate: string | null;
  awardDate: string;
  licence: { version: number; text: string };
  embargo: { choice: EmbargoChoice; until: string | null };
  filesPublic: boolean;
  file: { fileName: string; size: number; contentType: string } | null;
  handle: string | null;
  publishedAt: string;
  datestamp: string;
  withdrawn: { at: string; reason: string } | null;
}
