import "server-only";

// Every module that registers an onServerStart hook is imported here, once, by boot().
import "../webhooks/retention";
import "../pipeline/start-worker";
import "../demo/start";
import "../pipeline/schedules";
