import type { SubmissionDto } from "../../../../../common/submissions-api.js";
import { progressLines } from "../lib/markers.js";

/**
 * The prototype's three progress lines. Each marker carries its colour as data-colour and as a
 * shape (a tick for green, a ring otherwise), and always shows the value in words, so the colour
 * is never the only signal.
 */
export function ProgressLines({
  submission,
}: {
  submission: Pick<SubmissionDto, "sgsStage" | "internalExaminer" | "externalExaminer">;
}) {
  return (
    <ul className="progress-lines" aria-label="Progress">
      {progressLines(submission).map((line) => (
        <li key={line.label} className="progress-line">
          <span className="progress-line__label">{line.label}</span>
          <span className="marker" data-colour={line.colour} data-testid={`marker-${line.label}`}>
            <span className="marker__icon" aria-hidden="true">
              {line.colour === "green" ? "✓" : "○"}
            </span>
            <span className="marker__text">{line.value}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
