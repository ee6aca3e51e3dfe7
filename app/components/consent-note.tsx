import { privacyPath } from "~/content/privacy";
import { useSiteChrome } from "./site-chrome";

/** The line under a public form that says what sending it agrees to, with the privacy notice a link away. */
export function ConsentNote({ className }: { className?: string }) {
  const { consentLine } = useSiteChrome();
  return (
    <p className={`text-sm text-slate-600 ${className ?? ""}`}>
      {consentLine}{" "}
      <a href={privacyPath} className="underline underline-offset-4">
        privacy notice
      </a>{" "}
      explains.
    </p>
  );
}
