import { serveCalendarFeed } from "~/features/calendar-feed/calendar-feed.server";
import type { Route } from "./+types/calendar-feed";

/** A staff user's calendar, outside the staff area: calendar apps fetch it without cookies, by its secret path. */
export const loader = ({ context, params }: Route.LoaderArgs) => serveCalendarFeed(context.db, params.file);
