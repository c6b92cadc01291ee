import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";

// findBy* and waitFor give up after this long. Testing Library's default, 1 s, is shorter than a
// file's first render takes on a loaded two-core CI machine (its lazy modules load then): CI saw
// "Unable to find [data-testid=marker-SGS Admin]" with the panel still loading. What the tests
// wait for appears in milliseconds when nothing competes; a missing element still fails.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
