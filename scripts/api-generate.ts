// `npm run api:generate`: writes docs/openapi.json and web/lib/api-types.ts from the routes
// (scripts/api-contract.ts). The build runs it first, so the web app is built against the contract
// the server serves.
import { CONTRACT_FILES, writeContract } from "./api-contract.js";

const written = await writeContract();
console.log(
  written.length > 0
    ? `API contract: wrote ${written.join(", ")}`
    : `API contract: ${CONTRACT_FILES.document} and ${CONTRACT_FILES.types} are current`,
);
