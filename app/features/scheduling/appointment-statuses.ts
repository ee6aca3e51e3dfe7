/** The life of a request for an appointment (an estimate visit, a job): the staff forms' inbox statuses. */
export const APPOINTMENT_STATUS = {
  requested: "Requested",
  scheduled: "Scheduled",
  done: "Done",
  cancelled: "Cancelled",
} as const;

export const APPOINTMENT_STATUSES = [
  APPOINTMENT_STATUS.requested,
  APPOINTMENT_STATUS.scheduled,
  APPOINTMENT_STATUS.done,
  APPOINTMENT_STATUS.cancelled,
] as const;

/** The statuses in which the appointment is off: the staff's calendar feeds show it cancelled. */
export const APPOINTMENT_CANCELLED_STATUSES = [APPOINTMENT_STATUS.cancelled] as const;
