// The two-factor feature's public surface (issue 46): the profile page shows its section.
export { TwoFactorSection } from './components/two-factor-section';
