import type { ChoiceOption } from "~/features/skills/choice";

// The texts and options only. Which option is right lives in answer-key.server.ts and never reaches the browser.

export type ContactQuestion = {
  id: string;
  type: "text" | "email" | "tel";
  question: string;
  placeholder: string;
  autoComplete: "name" | "email" | "tel";
  required: true;
};

export type ChoiceQuestion = {
  id: string;
  type: "select";
  question: string;
  options: readonly ChoiceOption[];
  required: true;
};

export type AssessmentQuestion = ContactQuestion | ChoiceQuestion;

export const contactQuestions: readonly ContactQuestion[] = [
  {
    id: "1",
    type: "text",
    question: "What is your full name?",
    placeholder: "First and last name",
    autoComplete: "name",
    required: true,
  },
  {
    id: "2",
    type: "email",
    question: "What is your email address?",
    placeholder: "name@example.com",
    autoComplete: "email",
    required: true,
  },
  {
    id: "3",
    type: "tel",
    question: "What is your phone number?",
    placeholder: "(803) 555-0100",
    autoComplete: "tel",
    required: true,
  },
];

const choice = (id: string, question: string, options: ChoiceOption[]): ChoiceQuestion => ({
  id,
  type: "select",
  question,
  options,
  required: true,
});

export const choiceQuestions: readonly ChoiceQuestion[] = [
  choice("4", "What is the most total bend allowed in one run of EMT between pull points?", [
    { id: "A", text: "180 degrees" },
    { id: "B", text: "270 degrees" },
    { id: "C", text: "360 degrees" },
    { id: "D", text: "450 degrees" },
  ]),
  choice(
    "5",
    "You are bending a 30-degree offset. What do you multiply the offset depth by to find the distance between the two bends?",
    [
      { id: "A", text: "2" },
      { id: "B", text: "1.4" },
      { id: "C", text: "2.6" },
      { id: "D", text: "6" },
    ],
  ),
  choice("6", "You retrofit a fluorescent troffer with an LED retrofit kit. Which is required?", [
    { id: "A", text: "Any LED tube may go into any fixture, with the ballast left as it is" },
    { id: "B", text: "The kit only needs to be listed if the fixture is outdoors" },
    {
      id: "C",
      text: "A listed kit, installed following its instructions, with the fixture marked as converted using the kit's label",
    },
  ]),
  choice("7", "After normal power fails, how long must battery-powered emergency lighting keep the egress path lit?", [
    { id: "A", text: "30 minutes" },
    { id: "B", text: "60 minutes" },
    { id: "C", text: "4 hours" },
    { id: "D", text: "90 minutes" },
  ]),
  choice("8", "A branch circuit feeds a 16-amp continuous load. What is the smallest standard breaker you may use?", [
    { id: "A", text: "15 A" },
    { id: "B", text: "20 A" },
    { id: "C", text: "25 A" },
    { id: "D", text: "30 A" },
  ]),
  choice("9", "What is the largest breaker allowed to protect 12 AWG copper on a general-purpose branch circuit?", [
    { id: "A", text: "20 A" },
    { id: "B", text: "15 A" },
    { id: "C", text: "25 A" },
    { id: "D", text: "30 A" },
  ]),
  choice("10", "What is the minimum depth of clear working space in front of a 120/240 V panelboard?", [
    { id: "A", text: "24 inches" },
    { id: "B", text: "30 inches" },
    { id: "C", text: "48 inches" },
    { id: "D", text: "3 feet" },
  ]),
  choice("11", "What must a panelboard's circuit directory (panel schedule) show?", [
    { id: "A", text: "Only the rating of the main breaker" },
    { id: "B", text: "The clear, specific purpose or use of every circuit, legibly, at the panel" },
    { id: "C", text: "Nothing: a directory is optional on commercial jobs" },
  ]),
  choice(
    "12",
    "In a subpanel fed from the main service panel, how are the neutral and the equipment grounding conductors landed?",
    [
      { id: "A", text: "On separate bars: the neutral bar is isolated and the ground bar is bonded to the enclosure" },
      { id: "B", text: "On one shared bar, bonded to the enclosure, exactly like the main panel" },
      { id: "C", text: "The equipment grounding conductors are left out of the subpanel" },
    ],
  ),
  choice("13", "On a 208Y/120 V three-phase system, what is the voltage between any two phase conductors?", [
    { id: "A", text: "120 V" },
    { id: "B", text: "240 V" },
    { id: "C", text: "208 V" },
    { id: "D", text: "277 V" },
  ]),
  choice("14", "Which describes a 120/240 V single-phase, three-wire service?", [
    { id: "A", text: "Three ungrounded conductors, each 120 V from the others" },
    { id: "B", text: "Two ungrounded conductors 240 V apart, each 120 V to the grounded neutral" },
    { id: "C", text: "One ungrounded conductor at 240 V and a neutral" },
  ]),
  choice("15", "Which NFPA standard is the National Electrical Code?", [
    { id: "A", text: "NFPA 70E" },
    { id: "B", text: "NFPA 101" },
    { id: "C", text: "NFPA 72" },
    { id: "D", text: "NFPA 70" },
  ]),
  choice(
    "16",
    "Why are metal raceways, boxes and equipment bonded together and to the equipment grounding conductor?",
    [
      {
        id: "A",
        text: "To give fault current a low-impedance path back to the source, so the breaker trips quickly",
      },
      { id: "B", text: "To carry the normal neutral current" },
      { id: "C", text: "To make the earth the return path for fault current" },
    ],
  ),
  choice("17", "What is the minimum copper equipment grounding conductor for a circuit protected by a 20 A breaker?", [
    { id: "A", text: "14 AWG" },
    { id: "B", text: "10 AWG" },
    { id: "C", text: "12 AWG" },
    { id: "D", text: "8 AWG" },
  ]),
  choice("18", "What total voltage drop, feeder and branch circuit together, does the NEC recommend not exceeding?", [
    { id: "A", text: "2%" },
    { id: "B", text: "5%" },
    { id: "C", text: "3%" },
    { id: "D", text: "10%" },
  ]),
];

export const assessmentQuestions: readonly AssessmentQuestion[] = [...contactQuestions, ...choiceQuestions];

/** Each answer's label for the stored submission (the staff inbox): the question it answers. */
export const ASSESSMENT_FIELD_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  assessmentQuestions.map((question) => [question.id, question.question]),
);
