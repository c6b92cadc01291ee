// `npm run bench -- render`: the list of submissions rendered in Chromium, 100 rows per page.
// Being written (issue 11 item 5).
export async function benchRender(argv: string[]): Promise<void> {
  throw new Error(`the render benchmark is not written yet (${argv.join(" ")})`);
}
