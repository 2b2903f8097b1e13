// Request schemas of the auth calls (spec §7). The server validates with them; forms reuse them.
import { z } from 'zod';

// An empty address is missing, not malformed (issue 14): `abort` keeps the format message from following it.
const email = z.string({ error: 'The email field is required.' }).trim().toLowerCase()
  .min(1, { error: 'The email field is required.', abort: true })
  .email('The email field must be a valid email address.').max(255, 'The email field must not be greater than 255 characters.');
const password = z.string().min(8, 'The password field must be at least 8 characters.').max(128);

/** Laravel's `confirmed` rule: password_confirmation must match, reported under `password`. */
const confirmed = <T extends { password: string; password_confirmation: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== value.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'The password field confirmation does not match.' });
  }
};

export const loginSchema = z.object({
  email,
  password: z.string().min(1, 'The password field is required.').max(128),
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  email,
  password,
  password_confirmation: z.string(),
}).superRefine(confirmed);

export const forceResetPasswordSchema = z.object({
  password,
  password_confirmation: z.string(),
}).superRefine(confirmed);

export const updatePasswordSchema = z.object({
  current_password: z.string().min(1, 'The current password field is required.').max(128),
  password,
  password_confirmation: z.string(),
}).superRefine(confirmed);

export const updateProfileSchema = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  email,
  phone: z.string().trim().max(30).nullish(),
  // Required by the server when the email changes (issue 15): a token alone must not move the account's address.
  current_password: z.string().max(128).nullish(),
});

export const notificationListQuery = z.object({
  type: z.enum(['unread', 'all']).default('unread'),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(15),
});

export const markNotificationSchema = z.object({
  notificationId: z.string().optional(),
  url: z.string().max(2000).nullish(),
});

export type LoginInput = z.infer<typeof loginSchema>;
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** spec §3 "Authenticated user" as the API returns it. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  user_type: 'admin' | 'manager' | 'user' | 'partner';
  email_verified_at: string | null;
  doc_assigned: boolean;
  status: 'active' | 'inactive';
  two_fa_enabled_at: string | null;
  is_enable_2fa: boolean;
  force_password_reset: boolean;
  phone: string | null;
  parent_id: number | null;
}

export interface Announcement { status: 'on' | 'off'; message: string }
export interface PermissionSet { roles: string[]; permissions: string[] }

/** spec §3 "Login response". `GET /me` returns the same shape. */
export interface LoginResponse {
  data: AuthUser;
  access_token: string;
  permissions: PermissionSet;
  announcement: Announcement;
  message: string;
  status: 'success';
}

/** spec §3 "Notification". */
export interface NotificationItem {
  id: string;
  type: string;
  data: { title: string; message: string; url: string | null };
  read_at: string | null;
  created_at: string;
}

/** Status values of 409 responses and of the verification resend (spec §8). */
export { EMAIL_IS_NOT_VERIFIED, FORCE_RESET_PASSWORD, TWO_FACTOR_SETUP_REQUIRED } from './auth-status';
export const VERIFICATION_LINK_SENT = 'VERIFICATION_LINK_SENT';
export const ALREADY_VERIFIED = 'ALREADY_VERIFIED';
