import { describe, expect, it } from "vitest";
import {
  type DeviceForm,
  draftToOpen,
  edited,
  filesOf,
  handedOver,
  isWaiting,
  newForm,
  postOf,
  takenBack,
  waitsForSignIn,
} from "./device-forms";

const JOB_REQUEST = {
  formType: "job-request",
  label: "Job request",
  page: "/admin/quick-links/job-request",
  action: "/admin/quick-links/job-request",
  answeredInJson: false,
};

const typed = (form: DeviceForm, jobName: string, at: string) =>
  edited(form, { values: { jobName: [jobName] }, readable: [{ label: "Job Name", value: jobName }] }, new Date(at));

describe("a form's life on the device, as plain functions", () => {
  it("gives every new form a key of its own", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newForm(JOB_REQUEST, 7).submissionKey));
    expect(keys.size).toBe(50);
  });

  it("keeps what is typed only while the form is being edited: a form handed over is its post's", () => {
    const draft = typed(newForm(JOB_REQUEST, 7), "Gym", "2026-11-28T10:00:00Z");
    expect(draft.values).toEqual({ jobName: ["Gym"] });
    const waiting = handedOver(draft, [["jobName", "Gym"]], "signal", new Date("2026-11-28T10:01:00Z"));
    expect(waiting).toMatchObject({ state: "waiting", keptAt: "2026-11-28T10:01:00.000Z" });
    expect(typed(waiting, "Pool", "2026-11-28T10:02:00Z")).toBe(waiting);
  });

  it("waits for a sign-in, and is taken back as a draft under the same key without its post", () => {
    const draft = typed(newForm(JOB_REQUEST, 7), "Gym", "2026-11-28T10:00:00Z");
    const photo = new File(["x"], "panel.jpg", { type: "image/jpeg" });
    const waiting = waitsForSignIn(
      handedOver(
        draft,
        [
          ["jobName", "Gym"],
          ["photos", photo],
        ],
        "signal",
      ),
    );
    expect(waiting.state).toBe("waiting-sign-in");
    expect(isWaiting(waiting)).toBe(true);
    expect(filesOf(waiting)).toEqual([{ field: "photos", file: photo }]);
    expect(postOf(waiting).getAll("jobName")).toEqual(["Gym"]);
    const back = takenBack(waiting);
    expect(back).toMatchObject({ state: "editing", submissionKey: draft.submissionKey, values: { jobName: ["Gym"] } });
    expect(back.fields).toBeUndefined();
    expect(isWaiting(back)).toBe(false);
  });

  it("opens the tab's own draft first, then the newest, and never another form's or person's", () => {
    const older = typed(newForm(JOB_REQUEST, 7), "Older", "2026-11-28T09:00:00Z");
    const newer = typed(newForm(JOB_REQUEST, 7), "Newer", "2026-11-28T11:00:00Z");
    const theirs = typed(newForm(JOB_REQUEST, 8), "Theirs", "2026-11-28T12:00:00Z");
    const otherForm = typed(
      newForm({ ...JOB_REQUEST, formType: "estimate-request" }, 7),
      "Other",
      "2026-11-28T12:00:00Z",
    );
    const kept = handedOver(typed(newForm(JOB_REQUEST, 7), "Kept", "2026-11-28T12:00:00Z"), [], "signal");
    const forms = [older, newer, theirs, otherForm, kept];
    expect(draftToOpen(forms, JOB_REQUEST, 7, undefined)).toEqual([newer, older]);
    expect(draftToOpen(forms, JOB_REQUEST, 7, older.submissionKey)).toEqual([older, newer]);
    expect(draftToOpen(forms, JOB_REQUEST, 7, kept.submissionKey)).toEqual([newer, older]);
  });
});
