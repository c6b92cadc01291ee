import { Link } from "react-router";
import { STAGE_GUIDE } from "../../lib/stage-guide.js";
import "./info.css";

export function AboutPage() {
  return (
    <article className="info page--narrow" aria-labelledby="about-title">
      <h1 id="about-title">About ETS Tracking</h1>
      <p className="lead">
        ETS Tracking is the School of Graduate Studies&rsquo; service for following a thesis from
        the day it is handed in to the day the examiners&rsquo; reports are in.
      </p>
      <p>
        Graduate students log in with their institutional email and see the progress of their own
        submission, step by step, with the date of each step. Staff of the School record every step
        as it happens, so what a student sees is what the School knows.
      </p>

      <h2>The stages of a submission</h2>
      <ol className="info__stages">
        {STAGE_GUIDE.map((stage) => (
          <li key={stage.id}>
            <h3>{stage.title}</h3>
            <p>{stage.meaning}</p>
          </li>
        ))}
      </ol>

      <h2>Your documents</h2>
      <p>
        A submission is complete when the School has your thesis, the Turnitin report, the
        supervisor form, your statement of result and your financial clearance. Review starts once
        all five are in.
      </p>

      <h2>Who runs it</h2>
      <p>
        ETS Tracking is run by the School of Graduate Studies. Questions about your submission go to
        the School, not to your examiners: <Link to="/help/contact">contact us</Link> or read the{" "}
        <Link to="/help/faq">frequently asked questions</Link>.
      </p>
    </article>
  );
}
