// The performance marks the studio sets, read by its browser test and by `npm run bench:studio`.

/** The text in the editor changed. */
export const EDIT_MARK = 'vk:studio-edit';
/** The diagnostics of the newest text are on screen (detail: `{ errors }`). */
export const DIAGNOSTICS_MARK = 'vk:studio-diagnostics';
/** The worker's answer about the text in the editor came (before it is drawn). */
export const CHECKED_MARK = 'vk:studio-checked';
