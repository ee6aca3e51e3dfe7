import { Link } from "react-router";
import { inboxQuery } from "./inbox-filters";

/** The dashboard's line about spam: a lead caught by mistake waits there until someone releases it. */
export function HeldSpamCount({ count }: { count: number }) {
  return (
    <p className="text-slate-700">
      {count === 0
        ? "Nothing is held as spam."
        : `${count} ${count === 1 ? "submission is" : "submissions are"} held as spam, undelivered.`}{" "}
      {count > 0 ? (
        <Link to={`/admin/inbox${inboxQuery({ spam: "yes" })}`} className="font-semibold text-brand-800 underline">
          Check the spam
        </Link>
      ) : null}
    </p>
  );
}
