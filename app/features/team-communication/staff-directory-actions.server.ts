import { type AppLoadContext, data } from "react-router";
import * as z from "zod/mini";
import { readFormBody } from "~/forms/read-form-body.server";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { type DirectoryActionResult, directoryEntrySchema } from "./directory-schema";
import { readMobileNumber } from "./mobile-number.server";
import {
  addDirectoryEntry,
  type DirectoryDetails,
  duplicateProblemOf,
  duplicateProblems,
  findDirectoryEntry,
  listDirectoryEntries,
  setDirectoryEntryActive,
  updateDirectoryEntry,
} from "./staff-directory.server";
import { usesServiceTitan } from "./technician-source.server";

export async function loadStaffDirectory(context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  const entries = await listDirectoryEntries(context.db);
  return {
    usesServiceTitan: usesServiceTitan(context.config),
    entries: entries.map((entry) => ({
      id: entry.id,
      name: entry.name,
      email: entry.email ?? "",
      mobile: entry.mobile ?? "",
      isActive: entry.isActive,
      // Shown as such: a number that does not read as one is never texted.
      mobileUnreadable: entry.mobile !== null && "unreadable" in readMobileNumber(entry.mobile),
    })),
  };
}

const MOBILE_PROBLEM = "Enter a mobile number we can text, such as (803) 555-0123, or leave it empty.";

/** The entry's details from its form, or the problems to show beside its fields. */
function readDetails(formData: FormData): { details: DirectoryDetails } | { problems: Record<string, string> } {
  const parsed = z.safeParse(directoryEntrySchema, {
    name: formData.get("name") || undefined,
    email: formData.get("email") || undefined,
    mobile: formData.get("mobile") || undefined,
  });
  if (!parsed.success) {
    const problems: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      problems[field] ??= issue.message === "required" ? "Enter a name." : issue.message;
    }
    return { problems };
  }
  const { name, email, mobile } = parsed.data;
  if (mobile !== undefined && "unreadable" in readMobileNumber(mobile)) return { problems: { mobile: MOBILE_PROBLEM } };
  return { details: { name, email: email ?? null, mobile: mobile ?? null } };
}

function entryIdOf(formData: FormData): number | undefined {
  const value = String(formData.get("entryId") ?? "");
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** Add, save, deactivate and reactivate, for admins; each answers with a message beside its own form. */
export async function staffDirectoryAction(request: Request, context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  const read = await readFormBody(request, { maxBytes: 16 * 1024 });
  if (!read.ok) {
    return data({ intent: "", status: "error", message: "We could not read that form." } as DirectoryActionResult, {
      status: read.status,
    });
  }
  const { formData } = read;
  const intent = String(formData.get("intent") ?? "");
  const entryId = intent === "add" ? undefined : entryIdOf(formData);
  const reply = (status: number, result: Omit<DirectoryActionResult, "intent" | "entryId">) =>
    data({ intent, entryId, ...result } satisfies DirectoryActionResult, { status });
  if (intent !== "add" && entryId === undefined) return reply(400, { status: "error", message: "No such entry." });

  switch (intent) {
    case "add":
    case "save": {
      const read = readDetails(formData);
      // A refused form is shown again with what was typed, with JavaScript or without.
      const typedValues = {
        name: String(formData.get("name") ?? ""),
        email: String(formData.get("email") ?? ""),
        mobile: String(formData.get("mobile") ?? ""),
      };
      const refused = (problems: Record<string, string>) =>
        reply(400, { status: "error", message: "Please correct the fields below.", problems, values: typedValues });
      if ("problems" in read) return refused(read.problems);
      const duplicates = await duplicateProblems(context.db, read.details, entryId);
      if (Object.keys(duplicates).length > 0) return refused(duplicates);
      try {
        if (intent === "add") {
          await addDirectoryEntry(context.db, read.details);
          return reply(200, { status: "success", message: `${read.details.name} was added.` });
        }
        const saved = await updateDirectoryEntry(context.db, entryId ?? 0, read.details);
        return saved
          ? reply(200, { status: "success", message: "Saved." })
          : reply(404, { status: "error", message: "No such entry." });
      } catch (error) {
        const duplicate = duplicateProblemOf(error);
        if (duplicate) return refused(duplicate);
        throw error;
      }
    }
    case "deactivate":
    case "reactivate": {
      if (intent === "reactivate") {
        const entry = await findDirectoryEntry(context.db, entryId ?? 0);
        if (!entry) return reply(404, { status: "error", message: "No such entry." });
        const duplicates = Object.values(await duplicateProblems(context.db, entry, entry.id));
        if (duplicates.length > 0) return reply(409, { status: "error", message: duplicates.join(" ") });
      }
      const changed = await setDirectoryEntryActive(context.db, entryId ?? 0, intent === "reactivate");
      if (!changed) return reply(404, { status: "error", message: "No such entry." });
      return reply(200, {
        status: "success",
        message:
          intent === "reactivate"
            ? "Reactivated: offered for messages again."
            : "Deactivated: no longer offered for messages.",
      });
    }
    default:
      return reply(400, { status: "error", message: "Unknown action." });
  }
}
