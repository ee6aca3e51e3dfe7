/** The SESSION_SECRET of every app the tests start: with it a test can sign a session cookie the app accepts. */
export const TEST_SESSION_SECRET = "test-session-secret-that-is-long-enough-0123456789";
