/** Long passphrases beat complex short ones (NIST SP 800-63B); the upper bound keeps hashing cheap to refuse. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;
