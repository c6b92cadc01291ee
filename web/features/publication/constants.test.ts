import { describe, expect, it } from "vitest";
import * as common from "../../../common/publication.js";
import * as local from "./constants.js";

describe("the status page's zod-free publication constants", () => {
  it("are the ones common/publication.ts defines", () => {
    expect(local.EMBARGO_CHOICES).toEqual(common.EMBARGO_CHOICES);
    expect(local.EMBARGO_LABELS).toEqual(common.EMBARGO_LABELS);
    expect(local.MAX_KEYWORDS).toBe(common.MAX_KEYWORDS);
    expect(local.MAX_SUPERVISORS).toBe(common.MAX_SUPERVISORS);
  });
});
