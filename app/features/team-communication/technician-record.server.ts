import { readMobileNumber } from "./mobile-number.server";
import type { TechnicianOption } from "./technician";

/**
 * A technician as the server knows them. `phoneNumber` is E.164, or null when there is none or it cannot be
 * read as a number (then `unreadablePhone` keeps what was written, to show, and nothing is texted).
 */
export type Technician = {
  id: number;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  unreadablePhone: string | null;
};

/** Email and phone as written in the source, checked: a blank is none, a number is read as E.164. */
export function technicianFrom(source: { id: number; name: string; email?: string | null; phone?: string | null }) {
  const email = source.email?.trim() || null;
  const written = source.phone?.trim() || null;
  const mobile = written === null ? undefined : readMobileNumber(written);
  return {
    id: source.id,
    name: source.name,
    email,
    phoneNumber: mobile && "e164" in mobile ? mobile.e164 : null,
    unreadablePhone: mobile && "unreadable" in mobile ? mobile.unreadable : null,
  } satisfies Technician;
}

/** What the browser is given of a technician: nothing but their name and how they can be reached. */
export function technicianOption(technician: Technician): TechnicianOption {
  return {
    id: technician.id,
    name: technician.name,
    canEmail: technician.email !== null,
    canText: technician.phoneNumber !== null,
  };
}
