// One icon set for every app: lucide-react (ISC, tree-shakeable SVG components). Apps import icons from
// @app/ui only, never from lucide-react: @app/ui is a shared singleton, so the page loads each icon once, and
// webpack keeps only the icons re-exported here (a shared module is not tree-shaken, its insides are).
// Add a name here when a screen needs another icon.
//
// Accessibility: an icon is decorative (lucide renders aria-hidden="true") unless it gets `aria-label`
// (then role="img" is added by the caller where needed). An icon alone inside a button or link takes its
// name from that control's `aria-label`, not from the icon.
export type { LucideIcon as IconComponent, LucideProps as IconProps } from 'lucide-react';
export {
  ArrowLeft as ArrowLeftIcon,
  ArrowRight as ArrowRightIcon,
  ChartLine as ChartIcon,
  Check as CheckIcon,
  Crosshair as TargetIcon,
  Heart as HeartIcon,
  Lock as LockIcon,
  LogOut as LogOutIcon,
  Mail as MailIcon,
  Menu as MenuIcon,
  Moon as MoonIcon,
  Phone as PhoneIcon,
  Sun as SunIcon,
  TriangleAlert as AlertIcon,
  X as CloseIcon,
} from 'lucide-react';
