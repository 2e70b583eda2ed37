/** The sign-in pages, loaded together in one chunk (none of them needs the back office). */
export { default as LoginPage } from './LoginPage';
export { default as RegisterPage } from './RegisterPage';
export { ForgotPasswordPage, ResendActivationPage } from './EmailRequestPage';
export { AcceptInvitationPage, ActivatePage, ConfirmEmailPage, HandoffPage, OidcCallbackPage, ResetEmailPage, ResetPasswordPage } from './TokenPages';
