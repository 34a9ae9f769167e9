/**
 * Below this viewport width (px) the survey is a full-screen sheet (the dialog is 640 px wide, so a
 * narrower screen could only show it squeezed between margins).
 */
export const SHEET_BELOW = 640;
