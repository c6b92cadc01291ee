/**
 * What sign-up hands to the login page through the router's navigation state: the confirmation
 * to keep on screen, and the email so the student need not type it twice.
 */
export interface AuthNotice {
  message?: string;
  email?: string;
}
