import { Link } from "react-router";

export type InboxAlert = { message: string; linkText: string; href: string };

/** The dashboard's warnings about the inbox, each with a link to the submissions it is about. */
export function InboxAlertBanner({ alerts }: { alerts: readonly InboxAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <section aria-labelledby="inbox-alerts-heading" className="mt-6 rounded-xl border-2 border-red-700 bg-red-50 p-4">
      <h2 id="inbox-alerts-heading" className="text-lg font-bold text-red-900">
        Needs attention
      </h2>
      <ul className="mt-2 space-y-2">
        {alerts.map((alert) => (
          <li key={alert.href} className="text-red-900">
            {alert.message}{" "}
            <Link to={alert.href} className="font-semibold underline">
              {alert.linkText}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
