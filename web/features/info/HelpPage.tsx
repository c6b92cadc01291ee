import { Link } from "react-router";
import "./info.css";

export function HelpPage() {
  return (
    <article className="info page--narrow" aria-labelledby="help-title">
      <h1 id="help-title">Help</h1>
      <p className="lead">
        Read through the <Link to="/help/faq">frequently asked questions</Link> section for more
        info or <Link to="/help/contact">Contact us</Link> for support
      </p>
      <div className="info__choices">
        <Link className="info__choice card" to="/help/faq">
          <span className="info__choice-title">Browse the FAQ</span>
          <span className="info__choice-text">Signing up, codes, stages and whom to contact.</span>
        </Link>
        <Link className="info__choice card" to="/help/contact">
          <span className="info__choice-title">Send us a message</span>
          <span className="info__choice-text">
            Send a message to the School of Graduate Studies.
          </span>
        </Link>
      </div>
    </article>
  );
}
