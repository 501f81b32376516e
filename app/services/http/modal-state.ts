// What a modal shows, as data: it travels from the server (an action's result, a flash, a
// `?modal=` state) to the one ModalHost in app/root.tsx, so every modal also renders without
// JavaScript. The components that draw it are in app/ui/modals.

export type ErrorModalState = {
  kind: 'error';
  title?: string;
  /** The error: a response body with `detail`, raw data, or a message. */
  error: unknown;
  warning?: boolean;
};

export type InfoModalState = {
  kind: 'info';
  title: string;
  content: string;
  /** "info" shows a blue info icon; any other value is treated as success (green check). */
  mode?: string;
};

/** Prompt and confirm post a form; `action` is where, `fields` are extra hidden inputs. */
export type PromptModalState = {
  kind: 'prompt';
  title: string;
  content: string;
  action: string;
  label: string;
  name?: string;
  defaultValue?: string;
  maxLength?: number;
  fields?: Record<string, string>;
};

export type ConfirmModalState = {
  kind: 'confirm';
  title: string;
  content: string;
  action: string;
  confirmLabel?: string;
  danger?: boolean;
  fields?: Record<string, string>;
};

export type ModalState = ErrorModalState | InfoModalState | PromptModalState | ConfirmModalState;

/**
 * A short answer shown in the page instead of a dialog (post/redirect/get without JavaScript):
 * beside the row it is about (`row`, a permaticker) when the page shows that row, else at the top
 * of the page's results. Flashed by the action, read once by the root loader.
 */
export type PageNotice = { text: string; mode: 'success' | 'info' | 'error'; row?: number };
