// `npm run bench -- bulk`: export of many rows as CSV and XLSX, import of a 50,000-row CSV.
// Being written (issue 11 item 4).
export async function benchBulk(argv: string[]): Promise<void> {
  throw new Error(`the bulk benchmark is not written yet (${argv.join(" ")})`);
}
