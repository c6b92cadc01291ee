/**
 * Content-Disposition with the file's name: a plain ASCII fallback for old clients, and the exact
 * name UTF-8 encoded (RFC 6266, RFC 5987).
 */
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const fallback =
    Array.from(fileName)
      .map((char) => (/^[\x20-\x7e]$/.test(char) && char !== '"' && char !== "\\" ? char : "_"))
      .join("") || "document.pdf";
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
