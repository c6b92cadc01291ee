// Writes the committed fixtures; the generator stays pure so the test can compare against it.
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

import {
  generateSampleJourneys,
  generateSampleSubmissions,
  SGS_ADMIN_VALUES,
} from "./sample-data-generator.js";

const target = fileURLToPath(new URL("../server/db/sample-data/submissions.json", import.meta.url));
const journeysTarget = fileURLToPath(
  new URL("../server/db/sample-data/journeys.json", import.meta.url),
);

const records = generateSampleSubmissions();
writeFileSync(target, `${JSON.stringify(records, null, 2)}\n`);
const journeys = generateSampleJourneys(records);
writeFileSync(journeysTarget, `${JSON.stringify(journeys, null, 2)}\n`);

const perStage = [undefined, ...SGS_ADMIN_VALUES]
  .map((stage) => {
    const count = records.filter((record) => record.SGSAdmin === stage).length;
    return `${stage ?? "none"}: ${count}`;
  })
  .join(", ");
const first = records[0]?.idNo;
const last = records[records.length - 1]?.idNo;
console.log(
  `wrote ${records.length} records (ids ${first}..${last}) to ` +
    `${relative(process.cwd(), target)}; SGSAdmin ${perStage}`,
);
console.log(
  `wrote ${journeys.journeys.length} sample journeys and ${journeys.examiners.length} examiners to ` +
    `${relative(process.cwd(), journeysTarget)}: ` +
    journeys.journeys.map((j) => `${j.indexNumber} ${j.shows}`).join(", "),
);
