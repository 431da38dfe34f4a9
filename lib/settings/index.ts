import "server-only";
// lib/settings's surface: what other folders import from it (its files import each other directly).
export { settingsView, type SettingsView } from "./view";
