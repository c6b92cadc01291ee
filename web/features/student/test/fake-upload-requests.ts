import { vi } from "vitest";

/**
 * Replaces XMLHttpRequest, as test/render.tsx's mockServer replaces fetch: the server is outside
 * the component's control in these tests, so each test plays the network's part. The upload
 * module talks to this object exactly as to a browser's XHR (open, headers, send, abort, the
 * upload's progress and load events, then load, error or abort); the test decides when bytes
 * move and what the server answers.
 */
export class FakeUploadRequest extends EventTarget {
  readonly upload = new EventTarget();
  method = "";
  url = "";
  readonly headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = "";
  readyState = 0;
  aborted = false;

  constructor(private readonly log: FakeUploadRequest[]) {
    super();
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }

  send(body: unknown): void {
    this.body = body;
    this.log.push(this);
  }

  abort(): void {
    if (this.readyState === 4) return;
    this.aborted = true;
    this.readyState = 4;
    this.status = 0;
    this.dispatchEvent(new ProgressEvent("abort"));
  }

  /** The file sent with the request (the multipart field `file`). */
  get file(): File | null {
    const value = this.body instanceof FormData ? this.body.get("file") : null;
    return value instanceof File ? value : null;
  }

  /** `loaded` of `total` request bytes have left the browser. */
  progress(loaded: number, total: number): void {
    this.upload.dispatchEvent(
      new ProgressEvent("progress", { loaded, total, lengthComputable: true }),
    );
  }

  /** Every byte is sent; the server has not answered yet. */
  finishSending(): void {
    this.upload.dispatchEvent(new ProgressEvent("load"));
  }

  respond(status: number, body: unknown): void {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.readyState = 4;
    this.dispatchEvent(new ProgressEvent("load"));
  }

  /** The connection drops: no answer at all. */
  dropConnection(): void {
    this.readyState = 4;
    this.status = 0;
    this.dispatchEvent(new ProgressEvent("error"));
  }
}

/** Installs the fake for one test (vi.unstubAllGlobals puts the real one back). */
export function fakeUploads(): { requests: FakeUploadRequest[] } {
  const requests: FakeUploadRequest[] = [];
  vi.stubGlobal(
    "XMLHttpRequest",
    class extends FakeUploadRequest {
      constructor() {
        super(requests);
      }
    },
  );
  return { requests };
}
