import type { OptionId } from "~/features/skills/choice";

/**
 * The correct option of every scored question, with the rule behind it (2023 NEC unless said otherwise). The
 * citations are data rather than comments so staff can be shown them, and so a test can spot this module
 * in the client build. Server-only: the browser gets the questions from questions.ts and only ever a score.
 */
export const ASSESSMENT_ANSWER_KEY: Readonly<Record<string, { answer: OptionId; basis: string }>> = {
  "4": {
    answer: "C",
    basis: "NEC 358.26: at most 360 degrees of bends between pull points in EMT (also 344.26 for RMC)",
  },
  "5": {
    answer: "A",
    basis: "Bending math: distance between bends = offset depth x cosecant 30 degrees = 2; 358.24 bends without damage",
  },
  "6": {
    answer: "C",
    basis: "NEC 410.6: retrofit kits must be listed; 110.3(B): install per the listing instructions, kit label applied",
  },
  "7": {
    answer: "D",
    basis: "NEC 700.12: battery and unit equipment carry the emergency load for at least 1 1/2 hours (90 minutes)",
  },
  "8": {
    answer: "B",
    basis: "NEC 210.20(A): breaker at least 125% of the continuous load (16 A x 1.25 = 20 A); 240.6(A) standard sizes",
  },
  "9": { answer: "A", basis: "NEC 240.4(D)(5): 12 AWG copper, overcurrent protection at most 20 A" },
  "10": { answer: "D", basis: "NEC 110.26(A)(1), Table 110.26(A)(1): 0-150 V to ground, 3 ft in every condition" },
  "11": {
    answer: "B",
    basis:
      "NEC 408.4(A): every circuit legibly identified by its clear, evident and specific purpose, in a directory at the panel",
  },
  "12": {
    answer: "A",
    basis:
      "NEC 250.24(A)(5), 250.142(B) and 408.40: neutral bonded to ground only at the service; isolated neutral downstream",
  },
  "13": {
    answer: "C",
    basis: "120 V x square root of 3 = 208 V line to line; 208Y/120 is a nominal system voltage in 220.5(A)",
  },
  "14": {
    answer: "B",
    basis:
      "Single-phase three-wire: two ungrounded conductors 240 V apart, 120 V each to the neutral; 220.5(A) nominal 120/240",
  },
  "15": {
    answer: "D",
    basis:
      "NEC 90.1 and the cover: the National Electrical Code is NFPA 70 (70E is workplace safety, 101 life safety, 72 fire alarm)",
  },
  "16": {
    answer: "A",
    basis:
      "NEC 250.4(A)(3)-(5): an effective ground-fault current path of low impedance; the earth is not an effective path",
  },
  "17": {
    answer: "C",
    basis: "NEC Table 250.122: 20 A overcurrent device, 12 AWG copper equipment grounding conductor",
  },
  "18": {
    answer: "B",
    basis: "NEC 210.19(A) informational note and 215.2(A) informational note: 3% branch or feeder, 5% total",
  },
};
