import type { ReactNode } from "react";
import { Link } from "react-router";
import "./info.css";

interface Question {
  id: string;
  question: string;
  answer: ReactNode;
}

interface Topic {
  title: string;
  questions: Question[];
}

const TOPICS: Topic[] = [
  {
    title: "Signing up and logging in",
    questions: [
      {
        id: "signup",
        question: "How do I create an account?",
        answer: (
          <p>
            Choose <Link to="/auth/signup">Create account</Link>, enter your institutional email and
            your index number, and select Send Code. We email you a six-digit code; use it as your
            password on the <Link to="/auth/login">Log in</Link> page.
          </p>
        ),
      },
      {
        id: "which-email",
        question: "Which email address should I use?",
        answer: (
          <p>
            Your institutional (university) email address, the one the School of Graduate Studies
            has on record. Private addresses may not be linked to your submission.
          </p>
        ),
      },
      {
        id: "exists",
        question: "It says “User already exists”. What now?",
        answer: (
          <p>
            You already have an account. Log in with your code or password. If you no longer have
            the code, use “Forgot your code? Get a new one” on the login page.
          </p>
        ),
      },
    ],
  },
  {
    title: "Codes and passwords",
    questions: [
      {
        id: "codes",
        question: "My code did not arrive or has expired. What can I do?",
        answer: (
          <>
            <p>
              Codes are valid for a short time (about ten minutes). On the login page, enter your
              email and choose “Forgot your code? Get a new one”; a fresh code is sent to your
              institutional email. Check your spam or junk folder too.
            </p>
            <p>If nothing arrives after a few minutes, contact us and give your index number.</p>
          </>
        ),
      },
      {
        id: "password",
        question: "Can I set my own password?",
        answer: (
          <p>
            Yes. Once logged in, open Profile on your dashboard and choose a password of at least
            eight characters. You can still ask for a code if you forget it.
          </p>
        ),
      },
    ],
  },
  {
    title: "The stages of my submission",
    questions: [
      {
        id: "stages",
        question: "What do the stages mean?",
        answer: (
          <p>
            Awaiting Review: the School checks your documents. Sent to Department: your department
            nominates examiners. Nominations Ready: the School approves them. Then your thesis goes
            to the internal and external examiners, who each receive it and submit a report. The{" "}
            <Link to="/about">About page</Link> explains each stage.
          </p>
        ),
      },
      {
        id: "no-submission",
        question: "My dashboard says no submission is on file. Why?",
        answer: (
          <p>
            The School has not yet registered your thesis under your index number. This happens when
            the documents have not been received or were recorded under a different index number.
            Contact us with your name, index number and programme.
          </p>
        ),
      },
      {
        id: "how-long",
        question: "How long does examination take?",
        answer: (
          <p>
            It depends on the examiners. The status page shows the date of each step so you can see
            how long each one has taken. If a report seems overdue, contact the School rather than
            the examiner.
          </p>
        ),
      },
    ],
  },
  {
    title: "Whom to contact",
    questions: [
      {
        id: "contact",
        question: "Whom should I contact about my submission?",
        answer: (
          <p>
            The School of Graduate Studies, through the <Link to="/help/contact">contact form</Link>
            . For questions about examiner nominations, your supervisor or your department&rsquo;s
            graduate coordinator can help. Please do not contact your examiners directly.
          </p>
        ),
      },
      {
        id: "wrong-details",
        question: "My name or programme is wrong on the status page.",
        answer: (
          <p>
            Send us a message with the correct details and your index number; the School will
            correct the record.
          </p>
        ),
      },
    ],
  },
];

export function FaqPage() {
  return (
    <article className="info page--narrow" aria-labelledby="faq-title">
      <h1 id="faq-title">Frequently asked questions</h1>
      <p className="lead">
        Answers about signing up, codes, the stages of a submission and whom to contact.
      </p>
      {TOPICS.map((topic) => (
        <section key={topic.title} className="faq__topic">
          <h2>{topic.title}</h2>
          {topic.questions.map((q) => (
            <details key={q.id} id={q.id} className="faq__item">
              <summary>{q.question}</summary>
              <div className="faq__answer">{q.answer}</div>
            </details>
          ))}
        </section>
      ))}
      <p className="faq__more">
        Still stuck? <Link to="/help/contact">Send us a message</Link>.
      </p>
    </article>
  );
}
