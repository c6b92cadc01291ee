import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-client.js";
import { uploadRefusalReason, uploadWithProgress } from "./upload-with-progress.js";
// The project's one stand-in for XMLHttpRequest (the network is outside the module's control).
import {
  fakeUploads,
  type FakeUploadRequest,
} from "../features/student/test/fake-upload-requests.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

function pdf(name: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type: "application/pdf" });
}

function start(options: { headers?: Record<string, string>; withCredentials?: boolean } = {}) {
  const uploads = fakeUploads();
  const file = pdf("thesis.pdf", 1000);
  const form = new FormData();
  form.append("file", file, file.name);
  const progress: Array<[number, number]> = [];
  const sent: string[] = [];
  const handle = uploadWithProgress(
    {
      path: "/api/somewhere",
      form,
      file,
      ...options,
      readSuccess: (body) => {
        const data = (body as { data?: unknown } | null)?.data;
        return typeof data === "string" ? data : undefined;
      },
      unreadableAnswer: (status, body) =>
        new ApiError(status, "bad_response", "unreadable", [], body),
      refusal: (status, body) => new ApiError(status, "refused", "refused", [], body),
    },
    { onProgress: (done, size) => progress.push([done, size]), onSent: () => sent.push("sent") },
  );
  const request = uploads.requests[0] as FakeUploadRequest & { withCredentials?: boolean };
  if (!request) throw new Error("no upload was sent");
  return { handle, request, progress, sent, form };
}

describe("uploadWithProgress", () => {
  it("sends the form with the caller's headers, counts progress in the file's bytes, and resolves with the read answer", async () => {
    const { handle, request, progress, sent, form } = start({
      headers: { authorization: "Examiner abc" },
      withCredentials: false,
    });
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/api/somewhere");
    expect(request.headers).toEqual({ accept: "application/json", authorization: "Examiner abc" });
    expect(request.withCredentials).toBe(false);
    expect(request.body).toBe(form);

    request.progress(600, 1200);
    request.progress(1300, 1200);
    request.finishSending();
    expect(progress).toEqual([
      [500, 1000],
      [1000, 1000],
    ]);
    expect(sent).toEqual(["sent"]);

    request.respond(201, { data: "stored" });
    await expect(handle.result).resolves.toBe("stored");
  });

  it("leaves credentials at the browser's default when the caller does not say", () => {
    const { request } = start();
    expect(request.headers).toEqual({ accept: "application/json" });
    expect(request.withCredentials).toBeUndefined();
  });

  it("rejects a 2xx answer it cannot read with the caller's unreadable-answer error", async () => {
    const { handle, request } = start();
    request.respond(200, { unexpected: true });
    await expect(handle.result).rejects.toMatchObject({
      status: 200,
      code: "bad_response",
      body: { unexpected: true },
    });
  });

  it("rejects a refusal with the caller's error, and a body that is not JSON as null", async () => {
    const { handle, request } = start();
    request.status = 502;
    request.responseText = "<html>Bad gateway</html>";
    request.dispatchEvent(new ProgressEvent("load"));
    await expect(handle.result).rejects.toMatchObject({ status: 502, code: "refused", body: null });
  });

  it("rejects a dropped connection with an ApiError of status 0 naming the file", async () => {
    const { handle, request } = start();
    request.dropConnection();
    const error: unknown = await handle.result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 0,
      code: "network",
      message:
        "The connection dropped while sending thesis.pdf. Check your connection and try again.",
    });
  });

  it("aborts the request and rejects with an AbortError", async () => {
    const { handle, request } = start();
    handle.abort();
    expect(request.aborted).toBe(true);
    await expect(handle.result).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("uploadRefusalReason", () => {
  it("reads a known reason and ignores an unknown one or a body without one", () => {
    expect(uploadRefusalReason({ reason: "encrypted" })).toBe("encrypted");
    expect(uploadRefusalReason({ reason: "no_such_reason" })).toBeNull();
    expect(uploadRefusalReason(null)).toBeNull();
    expect(uploadRefusalReason("text")).toBeNull();
  });
});
