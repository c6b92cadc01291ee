/**
 * The little of jsdom's API the public pages' tests use to parse the HTML and XML the server
 * sends (jsdom ships no types; the web tests use it only as Vitest's environment).
 */
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string, options?: { contentType?: string });
    readonly window: { document: Document };
  }
}
