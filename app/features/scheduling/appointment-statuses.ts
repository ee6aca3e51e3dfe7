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
