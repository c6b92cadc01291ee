import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { EXAMINER_STATE_LABELS, SGS_STAGE_LABELS } from "../../../../../common/workflow.js";

/**
 * The three progress lines of the prototype's Submission Details panel and their marker colours
 * (spec section 2): SGS Admin is green when the value is Sent to Examiners, Internal and External
 * are green when Received; anything else keeps the default colour.
 */
export type MarkerColour = "green" | "default";

export interface ProgressLine {
  label: "SGS Admin" | "Internal" | "External";
  /** The value as the prototype words it, or "Not set". */
  value: string;
  colour: MarkerColour;
}

export const NOT_SET = "Not set";

export function progressLines(
  s: Pick<SubmissionDto, "sgsStage" | "internalExaminer" | "externalExaminer">,
): ProgressLine[] {
  return [
    {
      label: "SGS Admin",
      value: s.sgsStage ? SGS_STAGE_LABELS[s.sgsStage] : NOT_SET,
      colour: s.sgsStage === "sent_to_examiners" ? "green" : "default",
    },
    {
      label: "Internal",
      value: s.internalExaminer ? EXAMINER_STATE_LABELS[s.internalExaminer] : NOT_SET,
      colour: s.internalExaminer === "received" ? "green" : "default",
    },
    {
      label: "External",
      value: s.externalExaminer ? EXAMINER_STATE_LABELS[s.externalExaminer] : NOT_SET,
      colour: s.externalExaminer === "received" ? "green" : "default",
    },
  ];
}
