import { formatDate } from "../../lib/format.js";
import type { ExaminerTrack, Progress, StepState } from "./progress.js";

/** Words for each state: the stepper never relies on colour or shape alone. */
const STATE_TEXT: Record<StepState, string> = {
  done: "Done",
  current: "In progress",
  waiting: "Not started",
};

const CHIP: Record<StepState, string> = {
  done: "chip chip--green",
  current: "chip chip--amber",
  waiting: "chip",
};

function StateIcon({ state }: { state: StepState }) {
  // Decorative: the chip beside it says the same in words.
  if (state === "done") {
    return (
      <svg className="stepper__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" />
        <path
          d="M7 12.5l3.2 3.2L17 9"
          fill="none"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    );
  }
  return (
    <svg className="stepper__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" strokeWidth="2.5" />
      {state === "current" ? <circle cx="12" cy="12" r="5" className="stepper__icon-dot" /> : null}
    </svg>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return null;
  return (
    <time className="stepper__date" dateTime={iso}>
      {formatDate(iso)}
    </time>
  );
}

function Track({ track }: { track: ExaminerTrack }) {
  return (
    <section className={`track track--${track.state}`} aria-label={track.title}>
      <h4 className="track__title">
        {track.title} <span className={CHIP[track.state]}>{STATE_TEXT[track.state]}</span>
      </h4>
      <ol className="track__list">
        {track.milestones.map((m) => (
          <li
            key={m.label}
            className={`track__item track__item--${m.state}`}
            aria-current={m.state === "current" ? "step" : undefined}
          >
            <StateIcon state={m.state} />
            <span>
              {m.label}
              <span className="visually-hidden">: {STATE_TEXT[m.state]}</span>
              {m.date ? (
                <>
                  {" "}
                  <When iso={m.date} />
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The vertical stepper of DESIGN.md: done steps ticked with their date, the current step
 * highlighted, waiting steps muted; the two examiners side by side inside their step.
 */
export function ProgressTracker({ progress }: { progress: Progress }) {
  return (
    <ol className="stepper">
      {progress.steps.map((step) => (
        <li
          key={step.id}
          className={`stepper__step stepper__step--${step.state}`}
          aria-current={step.state === "current" ? "step" : undefined}
        >
          <StateIcon state={step.state} />
          <div className="stepper__body">
            <h3 className="stepper__title">
              {step.title} <span className={CHIP[step.state]}>{STATE_TEXT[step.state]}</span>
            </h3>
            {step.state !== "waiting" ? <When iso={step.date} /> : null}
            <p className="stepper__detail">{step.detail}</p>
            {step.tracks ? (
              <div className="stepper__tracks">
                {step.tracks.map((track) => (
                  <Track key={track.examiner} track={track} />
                ))}
              </div>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
