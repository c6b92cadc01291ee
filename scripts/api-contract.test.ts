import { describe, expect, it } from "vitest";
import {
  CONTRACT_FILES,
  contractInHead,
  contractOnDisk,
  generateContract,
} from "./api-contract.js";

/**
 * The contract cannot drift from the code: the committed document and the web app's generated
 * types are exactly what the routes make now. A route's schema changed without
 * `npm run api:generate` fails here; a response shape changed and regenerated fails the web app's
 * typecheck wherever it reads the old shape.
 */
describe("the committed API contract", () => {
  it("is what the routes make now (run `npm run api:generate` and commit both files)", async () => {
    const fresh = await generateContract();
    // The working tree's copies (what the web app is typechecked with) and the last commit's
    // (the build rewrites the working tree's, so a stale commit shows only there).
    const copies = [
      { where: "in the working tree", files: contractOnDisk() },
      { where: "in the last commit", files: contractInHead() },
    ];
    const stale: string[] = [];
    for (const { where, files } of copies) {
      if (files === undefined) continue;
      for (const key of ["document", "types"] as const) {
        if (files[key] !== fresh[key]) stale.push(`${CONTRACT_FILES[key]} ${where}`);
      }
    }
    expect(
      stale,
      `not what the routes make: ${stale.join("; ")}. Run npm run api:generate and commit both files.`,
    ).toEqual([]);
  });
});
