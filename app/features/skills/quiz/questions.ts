import type { ChoiceOption } from "~/features/skills/choice";

export type QuizQuestion = { id: string; question: string; options: readonly ChoiceOption[] };

/** The practice quiz. It is not scored: the person sees only the letters they chose. */
export const quizQuestions: readonly QuizQuestion[] = [
  {
    id: "1",
    question:
      "A conduit run between two pull points already has three 90-degree bends. How many more degrees of bend may it have?",
    options: [
      { id: "A", text: "None: 270 degrees is the limit" },
      { id: "B", text: "90 degrees: the limit is 360 degrees between pull points" },
      { id: "C", text: "180 degrees: the limit is 450 degrees between pull points" },
    ],
  },
  {
    id: "2",
    question: "What is the smallest copper conductor allowed on a 20-amp general-purpose branch circuit?",
    options: [
      { id: "A", text: "14 AWG" },
      { id: "B", text: "12 AWG" },
      { id: "C", text: "10 AWG" },
    ],
  },
  {
    id: "3",
    question: "When you calculate box fill, how does a receptacle or switch on its yoke count?",
    options: [
      { id: "A", text: "It does not count" },
      { id: "B", text: "As one conductor of the smallest size in the box" },
      { id: "C", text: "As two conductors of the largest size connected to the device" },
    ],
  },
  {
    id: "4",
    question: "What must a worker wear to work on or near exposed energized parts above 50 volts?",
    options: [
      { id: "A", text: "Leather work gloves and safety glasses are enough" },
      {
        id: "B",
        text: "Voltage-rated rubber insulating gloves with leather protectors and arc-rated PPE chosen for the hazard",
      },
      { id: "C", text: "Nothing special until the voltage is above 600 volts" },
    ],
  },
  {
    id: "5",
    question:
      "Which receptacle height, to the center of the box, stays within the accessible forward-reach range of 15 to 48 inches above the floor?",
    options: [
      { id: "A", text: "12 inches" },
      { id: "B", text: "18 inches" },
      { id: "C", text: "54 inches" },
    ],
  },
];
