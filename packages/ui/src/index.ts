export { Button, type ButtonProps, type ButtonVariant, buttonStyles } from './components/button';
export {
  Checkbox,
  controlStyles,
  FieldFrame,
  type Option,
  SelectField,
  TextAreaField,
  TextField,
} from './components/field';
export * from './components/icons';
export { inlineLinkStyles } from './components/link';
export { Modal } from './components/modal';
export { LoadErrorAlert, type LoadErrorAlertProps, SessionExpiredNotice } from './components/session-alerts';
export {
  Alert,
  type AlertTone,
  Badge,
  type BadgeTone,
  Card,
  Container,
  gridStyles,
  renderWhenNear,
  Skeleton,
  VisuallyHidden,
  visuallyHiddenStyles,
} from './components/surface';
export { type TabItem, Tabs } from './components/tabs';
export { usePageTitle } from './page-title';
export { type AppTheme, AppThemeProvider, type ThemeMode, theme, useThemeMode } from './theme';
export { THEME_BOOT_SCRIPT, THEME_CSS, THEME_STORAGE_KEY } from './theme-css.mjs';
