// Generated from docs/openapi.json by `npm run api:client` (openapi-typescript): do not edit.
// test/api-client.test.ts fails while this file differs from what the document gives.

export interface paths {
  "/api/alerts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Alert rules with state and thresholds, channels with health, recent firings with delivery results
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getAlerts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/alerts/{rule}/acknowledge": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge a firing alert: no repeats are sent until it resolves (the resolved still is)
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postAlertsRuleAcknowledge"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/alerts/{rule}/silence": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Silence an alert rule for a time: it is still evaluated and its events recorded, but no channel is told
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postAlertsRuleSilence"];
    /**
     * Lift an alert rule's silence
     * @description Role: **operator** or above (session or API token).
     */
    delete: operations["deleteAlertsRuleSilence"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/alerts/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test alert to one configured channel now; answers what the channel said
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postAlertsTest"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/audit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Operator actions, newest first, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getAudit"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/login": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in: sets the session cookie (throttled per address and per account)
     * @description `{email, password}`, or `{password}` alone for the first admin (admin@localhost). One answer for every failure (401), so it does not tell which accounts exist. A request from another origin is refused (400).
     *
     *     Public: no credentials.
     */
    post: operations["postAuthLogin"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/logout": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End this session (the row is revoked, not only the cookie cleared)
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postAuthLogout"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who is signed in
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getAuthMe"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/password": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change one's own password; one's other sessions and one's API tokens end
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postAuthPassword"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sessions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live sessions: the caller's own, everyone's for an admin
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getAuthSessions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sessions/{id}/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End one session: one's own, or anyone's for an admin
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postAuthSessionsIdRevoke"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sessions/revoke-all": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out everywhere: every session of the caller, this one too; with revokeTokens, their personal API tokens as well
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postAuthSessionsRevokeAll"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/budget": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Platform calls of the last hour by purpose and answer class against the rate budget
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getBudget"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Collections, newest first, each with its schedule in words and its last run
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getCollections"];
    put?: never;
    /**
     * Save a collection: a named URL list with run settings and an optional schedule
     * @description JSON `{"name", "urls", "schedule"?, "timezone"?, "formats"?, "renderJs"?, "ignorePatterns"?, "overlap"?}`, or the list as `text/plain` / `text/csv` with `?name=&schedule=&timezone=&formats=&renderJs=&overlap=`. `schedule` is a cron expression (five fields, or six with seconds first) in the IANA `timezone` (default UTC); `overlap` is `skip` (default) or `queue`; `ignorePatterns` are regular expressions removed before a page is fingerprinted. A bad line, schedule, time zone or pattern answers 400 and saves nothing.
     *
     *     Role: **operator** or above (session or API token).
     */
    post: operations["postCollections"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections/{collectionId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A collection with its last 20 runs (trigger, counts, changes) and its last 20 scheduled ticks
     * @description `?urls=1` adds the list itself, one URL a line.
     *
     *     Role: **viewer** or above (session or API token).
     */
    get: operations["getCollectionsCollectionId"];
    put?: never;
    /**
     * Replace a collection's list or settings; the next run uses them
     * @description The fields of a create, each optional (JSON), or a new list as `text/plain` / `text/csv` with settings in the query. A changed schedule or time zone counts its next tick from now; `schedule: null` removes the schedule.
     *
     *     Role: **operator** or above (session or API token).
     */
    post: operations["postCollectionsCollectionId"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections/{collectionId}/pause": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stop the collection's schedule (a manual run still works)
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postCollectionsCollectionIdPause"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections/{collectionId}/resume": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start the collection's schedule again; its next tick counts from now (ticks missed while paused are not run)
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postCollectionsCollectionIdResume"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections/{collectionId}/run": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a run of the collection now with its current list and settings
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postCollectionsCollectionIdRun"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/collections/{collectionId}/urls/history": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One URL's history across a collection's runs: state, error, change, the rung that stored it, tokens
     * @description Newest run first; runs whose list did not hold the URL are left out. `remembered` is the rung the next run starts the URL at. Excerpts are plain text. Paged with `cursor` (pass `nextCursor` back).
     *
     *     Role: **viewer** or above (session or API token).
     */
    get: operations["getCollectionsCollectionIdUrlsHistory"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/alerts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Evaluate the alert rules and send due notifications (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronAlerts"];
    put?: never;
    /**
     * Evaluate the alert rules and send due notifications (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronAlerts"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/bodies-sweep": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Remove the body store's objects that no result names, once older than the grace (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronBodiesSweep"];
    put?: never;
    /**
     * Remove the body store's objects that no result names, once older than the grace (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronBodiesSweep"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/collections": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Start the collections' due scheduled runs: one run per tick, a missed tick once (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronCollections"];
    put?: never;
    /**
     * Start the collections' due scheduled runs: one run per tick, a missed tick once (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronCollections"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/poll": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One polling pass: ends the runs whose process stopped, polls what is due, bounded (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronPoll"];
    put?: never;
    /**
     * One polling pass: ends the runs whose process stopped, polls what is due, bounded (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronPoll"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/reconcile": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One reconciliation, answered when it has ended; 409 if one is running
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronReconcile"];
    put?: never;
    /**
     * One reconciliation, answered when it has ended; 409 if one is running
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronReconcile"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/retention": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One retention pass and the expired-secret clean-up (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronRetention"];
    put?: never;
    /**
     * One retention pass and the expired-secret clean-up (single-flight)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronRetention"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/cron/work": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Drain the queue for at most maxSeconds (query or JSON body; default 25, max 300)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    get: operations["getCronWork"];
    put?: never;
    /**
     * Drain the queue for at most maxSeconds (query or JSON body; default 25, max 300)
     * @description Scheduler: `Authorization: Bearer $TALLY_CRON_SECRET`.
     */
    post: operations["postCronWork"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dead-letters": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dead letters matching a filter, newest first, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getDeadLetters"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dead-letters/discard": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Discard dead letters with a reason, by ids or all open ones a filter matches
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postDeadLettersDiscard"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dead-letters/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Dead letters as a streamed CSV download, with the list's filter
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getDeadLettersExport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dead-letters/retry": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retry (resubmit or re-queue) dead letters by ids, or all open ones a filter matches
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postDeadLettersRetry"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One page of the inbound delivery log or the mirrored platform log, filtered, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/deliveries/unauthorized": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * 401s per minute per subscription, rotation markers and current spikes
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getDeliveriesUnauthorized"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/destinations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Forwarding destinations, secrets masked
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getDestinations"];
    put?: never;
    /**
     * Register a destination: a webhook (`url`, its secret in this answer only) or a sink (`type` and `config`, checked by connecting; 400 with the sink's reason)
     * @description Role: **admin** (session or API token).
     */
    post: operations["postDestinations"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/destinations/{id}/disable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stop sending to a destination (queued events are skipped, not sent)
     * @description Role: **admin** (session or API token).
     */
    post: operations["postDestinationsIdDisable"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/destinations/{id}/enable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to a disabled destination again (events from now on)
     * @description Role: **admin** (session or API token).
     */
    post: operations["postDestinationsIdEnable"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Database check and version, for load balancers and uptime checks
     * @description Public: no credentials.
     */
    get: operations["getHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/jobs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Jobs, filtered, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getJobs"];
    put?: never;
    /**
     * Submit an async job to the platform
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postJobs"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/jobs/{jobId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One job (platform status, outcome, lineage) with its events and timeline
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getJobsJobId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/jobs/{jobId}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a queued or running batch/crawl job on the platform; outcome cancelled
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postJobsJobIdCancel"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/jobs/{jobId}/results": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One job's stored results with full content, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getJobsJobIdResults"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/jobs/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The Jobs list as a streamed CSV download, with the list's filters
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getJobsExport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/metrics": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics in the text exposition format
     * @description Scraper: `Authorization: Bearer $TALLY_METRICS_TOKEN` (or TALLY_API_TOKEN).
     */
    get: operations["getMetrics"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/openapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This API's OpenAPI 3.1 description (what docs/api-reference.md renders)
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOpenapiJson"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/operations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Recent operation runs, newest first, optionally of one kind
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOperations"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/operations/{runId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One operation run: kind, state, progress, summary
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOperationsRunId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/operations/history": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Operation runs of every kind, newest first, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOperationsHistory"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/operations/reconcile": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start (or join) a reconciliation
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postOperationsReconcile"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/operations/replay": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay missed deliveries from the platform's log
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postOperationsReplay"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/outbound": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Outbound deliveries, newest first, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOutbound"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/outbound/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One outbound delivery's attempts, oldest first
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOutboundId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/outbound/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Each destination's success rate, deliveries by status, last success and last error
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOutboundHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/outbound/replay": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send failed outbound events again now: one delivery, or a destination's since a time
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postOutboundReplay"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/overview": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The overview's figures: ledger, queue, deliveries, alerts
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOverview"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/overview/throughput": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Deliveries and outcomes per minute (hour) or per hour (day)
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getOverviewThroughput"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/ready": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: the database answers, its migrations are current, the body store takes a write and the process is not stopping
     * @description Public: no credentials.
     */
    get: operations["getReady"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/results": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The change feed over every stored result, resumable from an opaque cursor
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getResults"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/results/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Stored results as a streamed JSONL or CSV download, with the Jobs filters
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getResultsExport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Runs, newest first, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getRuns"];
    put?: never;
    /**
     * A run from a list of URLs: JSON, or a text/plain or text/csv body with its options in the query
     * @description JSON `{"name"?, "urls", "formats"?, "renderJs"?, "batchSize"?, "ignoreInvalid"?}`, or a `text/plain` / `text/csv` body (one URL a line; the first column of a CSV, with or without a header) with `?name=&batchSize=&ignoreInvalid=&renderJs=&formats=&maxTokens=&checks=&escalation=` (`checks` and `escalation` as JSON text); up to 32 MB. Invalid lines answer 400 with `details.invalidLines` (the first 20, with their line numbers) and create nothing, unless `ignoreInvalid`.
     *
     *     Role: **operator** or above (session or API token).
     */
    post: operations["postRuns"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One run: its counts (adding up to total), chunks, duplicate submissions, platform calls and ETA
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getRunsRunId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}/cancel": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stop the run: its running batch jobs are cancelled, URLs not stored become failed (cancelled)
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postRunsRunIdCancel"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}/changes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A collection run's URLs against the collection's previous completed run, with the counts per change
     * @description `change` is `new`, `changed`, `unchanged` or `gone` (stored last time, failed or absent now). 409 for a run that is not a collection run or is not classified yet.
     *
     *     Role: **viewer** or above (session or API token).
     */
    get: operations["getRunsRunIdChanges"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One row per URL with its state and stored result, streamed (CSV or JSON Lines)
     * @description `?changes=only` (a collection run): only the URLs that are new or changed since the collection's previous run; 409 before the run is classified.
     *
     *     Role: **viewer** or above (session or API token).
     */
    get: operations["getRunsRunIdExport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}/retry-failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The run's failed URLs go round again
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postRunsRunIdRetryFailed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runs/{runId}/urls": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The run's URLs in list order, optionally in one state, keyset-paged
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getRunsRunIdUrls"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/simulator/config": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The demo simulator's fault knobs (404 in live mode)
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getSimulatorConfig"];
    put?: never;
    /**
     * Change some of the demo simulator's fault knobs (audited); answers all of them
     * @description Role: **admin** (session or API token).
     */
    post: operations["postSimulatorConfig"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/subscriptions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The webhook subscriptions, with the last four characters of each secret
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getSubscriptions"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/subscriptions/{id}/replay-401s": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay the deliveries that got 401 since the last rotation
     * @description Role: **operator** or above (session or API token).
     */
    post: operations["postSubscriptionsIdReplay401s"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/subscriptions/{id}/rotate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the secret on the platform, store it, replay the 401s; the new secret is in this answer only
     * @description Role: **admin** (session or API token).
     */
    post: operations["postSubscriptionsIdRotate"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/subscriptions/{id}/secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Store a secret rotated elsewhere, then replay the 401s since the spike
     * @description Role: **admin** (session or API token).
     */
    post: operations["postSubscriptionsIdSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/subscriptions/register": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register the missing subscriptions at TALLY_PUBLIC_URL; answers the list
     * @description Role: **admin** (session or API token).
     */
    post: operations["postSubscriptionsRegister"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/tokens": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Personal API tokens: one's own (an admin sees all)
     * @description Role: **viewer** or above (session or API token).
     */
    get: operations["getTokens"];
    put?: never;
    /**
     * Make a personal API token; the token is in this answer only
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postTokens"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/tokens/{id}/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke an API token at once: one's own, or anyone's for an admin
     * @description Role: **viewer** or above (session or API token).
     */
    post: operations["postTokensIdRevoke"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/users": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * People who sign in
     * @description Role: **admin** (session or API token).
     */
    get: operations["getUsers"];
    put?: never;
    /**
     * Add a person who signs in
     * @description Role: **admin** (session or API token).
     */
    post: operations["postUsers"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/users/{id}/disable": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Shut a person out: their sessions and tokens end at once
     * @description Role: **admin** (session or API token).
     */
    post: operations["postUsersIdDisable"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/users/{id}/reset-password": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a person's password: their sessions end and their personal API tokens are revoked
     * @description Role: **admin** (session or API token).
     */
    post: operations["postUsersIdResetPassword"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/users/{id}/role": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change a person's role; it applies on their next request
     * @description Role: **admin** (session or API token).
     */
    post: operations["postUsersIdRole"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      /**
       * @description What went wrong, as a stable code a script can test
       * @enum {string}
       */
      error:
        | "bad_request"
        | "unauthorized"
        | "forbidden"
        | "not_found"
        | "conflict"
        | "too_many_requests"
        | "upstream_error"
        | "platform_rejected"
        | "platform_payment_required"
        | "platform_conflict"
        | "platform_not_found"
        | "platform_auth_failed"
        | "platform_timeout"
        | "platform_unavailable"
        | "body_store_unavailable"
        | "internal_error";
      /** @description What went wrong, for people */
      message: string;
      /** @description More about it, where there is more (e.g. each invalid field) */
      details?: unknown;
    };
    JsonValue:
      | string
      | number
      | boolean
      | null
      | components["schemas"]["JsonValue"][]
      | {
          [key: string]: components["schemas"]["JsonValue"];
        };
  };
  responses: {
    /** @description The input is invalid: a field, the query, the path or the JSON itself (`details` lists each problem) (error: `bad_request`) */
    400: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Not signed in, or the credential is wrong (error: `unauthorized`) */
    401: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The platform refused for want of credit (error: `platform_payment_required`) */
    402: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The role is too low for this route, or a cross-origin request from a browser session (CSRF check) (error: `forbidden`) */
    403: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Not found (error: `not_found`, `platform_not_found`) */
    404: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Conflict with the current state (already running, already exists, not in a state that allows it) (error: `conflict`, `platform_conflict`) */
    409: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The platform refused the input (error: `platform_rejected`) */
    422: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Too many requests; `Retry-After` says when to try again (error: `too_many_requests`) */
    429: {
      headers: {
        /** @description Seconds to wait */
        "Retry-After"?: number;
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Something failed on Tally's side (error: `internal_error`) */
    500: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The platform (or the simulator) failed or could not be reached (error: `upstream_error`, `platform_auth_failed`) */
    502: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description A dependency is unavailable (the database, or the platform while it counts as down); `Retry-After` says when to try again where it is known (error: `platform_unavailable`, `body_store_unavailable`) */
    503: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The platform did not answer in time (error: `platform_timeout`) */
    504: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postAlertsRuleAcknowledge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        rule: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            rule:
              | "dead_letters"
              | "unauthorized_spike"
              | "subscription_drift"
              | "stale_pending"
              | "queue_stalled"
              | "queue_bloat"
              | "platform_errors"
              | "safety_net_failed"
              | "run_suspect_share"
              | "run_token_cap"
              | "body_store_unavailable";
            acknowledgedAt: string;
            acknowledgedBy: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postAlertsRuleSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        rule: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          minutes: number;
          note?: string | null;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            rule:
              | "dead_letters"
              | "unauthorized_spike"
              | "subscription_drift"
              | "stale_pending"
              | "queue_stalled"
              | "queue_bloat"
              | "platform_errors"
              | "safety_net_failed"
              | "run_suspect_share"
              | "run_token_cap"
              | "body_store_unavailable";
            silencedUntil: string | null;
            silencedBy: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  deleteAlertsRuleSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        rule: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            rule:
              | "dead_letters"
              | "unauthorized_spike"
              | "subscription_drift"
              | "stale_pending"
              | "queue_stalled"
              | "queue_bloat"
              | "platform_errors"
              | "safety_net_failed"
              | "run_suspect_share"
              | "run_token_cap"
              | "body_store_unavailable";
            silencedUntil: string | null;
            silencedBy: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postAlertsTest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          channel: "webhook" | "slack" | "email";
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @enum {string} */
            channel: "webhook" | "slack" | "email";
            ok: boolean;
            statusCode: number | null;
            error: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getAudit: {
    parameters: {
      query?: {
        action?: string;
        actor?: string;
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              at: string;
              actor: string;
              action: string;
              target: string | null;
              detail: string | null;
              ok: boolean;
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postAuthLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email?: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "ok";
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      429: components["responses"]["429"];
      500: components["responses"]["500"];
    };
  };
  postAuthLogout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "signed_out";
          };
        };
      };
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
    };
  };
  getAuthMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            email: string | null;
            name: string;
            /** @enum {string} */
            role: "viewer" | "operator" | "admin";
            /** @enum {string} */
            kind: "user" | "token";
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postAuthPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          currentPassword: string;
          newPassword: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            endedSessions: number;
            revokedTokens: number;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      429: components["responses"]["429"];
      500: components["responses"]["500"];
    };
  };
  getAuthSessions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              email: string;
              name: string;
              clientAddress: string;
              userAgent: string | null;
              createdAt: string;
              lastSeenAt: string;
              expiresAt: string;
              current: boolean;
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postAuthSessionsIdRevoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "revoked";
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postAuthSessionsRevokeAll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          revokeTokens?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            revoked: number;
            tokensRevoked: number;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
    };
  };
  getBudget: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            generatedAt: string;
            from: string;
            to: string;
            requestsPerSecond: number;
            budgetPerMinute: number;
            purposes: string[];
            answerClasses: string[];
            minutes: {
              t: number;
              total: number;
              byPurpose: {
                [key: string]: number;
              };
              rateLimited: number;
            }[];
            byPurpose: {
              purpose: string;
              calls: number;
              perMinute: number;
              peakPerMinute: number;
              answers: {
                [key: string]: number;
              };
            }[];
            answers: {
              [key: string]: number;
            };
            totalCalls: number;
            peakPerMinute: number;
            rateLimited: {
              answers: number;
              minutesWithPause: number;
              pausedForMs: number;
            };
            breaker: {
              /** @enum {string} */
              state: "closed" | "open" | "probing";
              since: string | null;
              openedBy: string | null;
              reason: string | null;
              failedInARow: number;
              nextProbeAt: string | null;
              probingBy: string | null;
              closedAt: string | null;
              closedBy: string | null;
            };
            finished: {
              total: number;
              byWebhook: number;
              byPoll: number;
              other: number;
            };
            perJob: {
              allButSubmits: number | null;
              webhookTerms: number | null;
              pollingTerms: number | null;
            };
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getCollections: {
    parameters: {
      query?: {
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              name: string;
              urlCount: number;
              schedule: string | null;
              timezone: string;
              nextRunAt: string | null;
              paused: boolean;
              scheduleText: string | null;
              lastRun: {
                id: string;
                /** @enum {string} */
                state: "submitting" | "running" | "completed" | "cancelled";
                /** @enum {string} */
                trigger: "schedule" | "manual";
                counts: {
                  pending: number;
                  submitted: number;
                  stored: number;
                  retrying: number;
                  suspect: number;
                  failed: number;
                };
                changes: {
                  new: number;
                  changed: number;
                  unchanged: number;
                  gone: number;
                } | null;
                createdAt: string;
              } | null;
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postCollections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            urlCount: number;
            schedule: string | null;
            timezone: string;
            nextRunAt: string | null;
            paused: boolean;
          };
        };
      };
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
    };
  };
  getCollectionsCollectionId: {
    parameters: {
      query?: {
        urls?: "0" | "1" | "true" | "false";
      };
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            urlCount: number;
            schedule: string | null;
            timezone: string;
            nextRunAt: string | null;
            paused: boolean;
            scheduleText: string | null;
            formats: ("markdown" | "html")[];
            renderJs: boolean;
            ignorePatterns: string[];
            /** @enum {string} */
            overlap: "skip" | "queue";
            checks: {
              [key: string]: unknown;
            } | null;
            escalation:
              | {
                  [key: string]: unknown;
                }[]
              | null;
            maxTokens: number | null;
            monthlyMaxTokens: number | null;
            keepBodiesRuns: number | null;
            tokensThisMonth: number;
            queuedFor: string | null;
            createdBy: string;
            createdAt: string;
            runs: {
              id: string;
              /** @enum {string} */
              state: "submitting" | "running" | "completed" | "cancelled";
              /** @enum {string} */
              trigger: "schedule" | "manual";
              counts: {
                pending: number;
                submitted: number;
                stored: number;
                retrying: number;
                suspect: number;
                failed: number;
              };
              changes: {
                new: number;
                changed: number;
                unchanged: number;
                gone: number;
              } | null;
              createdAt: string;
            }[];
            ticks: {
              scheduledFor: string;
              /** @enum {string} */
              outcome: "started" | "skipped" | "queued";
              runId: string | null;
              reason: string | null;
            }[];
            urls?: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postCollectionsCollectionId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            urlCount: number;
            schedule: string | null;
            timezone: string;
            nextRunAt: string | null;
            paused: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postCollectionsCollectionIdPause: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            urlCount: number;
            schedule: string | null;
            timezone: string;
            nextRunAt: string | null;
            paused: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postCollectionsCollectionIdResume: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            urlCount: number;
            schedule: string | null;
            timezone: string;
            nextRunAt: string | null;
            paused: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postCollectionsCollectionIdRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getCollectionsCollectionIdUrlsHistory: {
    parameters: {
      query: {
        url: string;
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path: {
        collectionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            url: string;
            remembered: {
              rung: number;
              rungName: string;
              updatedAt: string;
            } | null;
            items: {
              runId: string;
              startedAt: string;
              /** @enum {string} */
              trigger: "schedule" | "manual";
              /** @enum {string} */
              state: "pending" | "submitted" | "stored" | "retrying" | "suspect" | "failed";
              errorCode: string | null;
              change: ("new" | "changed" | "unchanged" | "gone") | null;
              rung: number;
              rungName: string;
              rungsTried: string[];
              tokensCharged: number;
              checkName: string | null;
              checkExcerpt: string | null;
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getCronAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postCronAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getCronBodiesSweep: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postCronBodiesSweep: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getCronCollections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postCronCollections: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getCronPoll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postCronPoll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  getCronReconcile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postCronReconcile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  getCronRetention: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postCronRetention: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getCronWork: {
    parameters: {
      query?: {
        maxSeconds?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postCronWork: {
    parameters: {
      query?: {
        maxSeconds?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          /** @default 25 */
          maxSeconds?: number;
        };
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  getDeadLetters: {
    parameters: {
      query?: {
        state?: "open" | "retried" | "discarded" | "all";
        kind?: string;
        errorCode?: string;
        jobId?: string;
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postDeadLettersDiscard: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              ids: number[];
              reason: string;
            }
          | {
              filter: {
                kind?: string;
                errorCode?: string;
                jobId?: string;
              };
              expectedCount: number;
              reason: string;
            };
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getDeadLettersExport: {
    parameters: {
      query?: {
        state?: "open" | "retried" | "discarded" | "all";
        kind?: string;
        errorCode?: string;
        jobId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/csv": string;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postDeadLettersRetry: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              ids: number[];
            }
          | {
              filter: {
                kind?: string;
                errorCode?: string;
                jobId?: string;
              };
              expectedCount: number;
            };
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getDeliveries: {
    parameters: {
      query?: {
        status?: string;
        window?: "15m" | "1h" | "24h" | "7d";
        from?: string;
        to?: string;
        subscriptionId?: string;
        log?: "inbound" | "platform";
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | {
                items: {
                  id: number;
                  receivedAt: string;
                  subscriptionId: string | null;
                  deliveryId: string | null;
                  eventType: string | null;
                  jobId: string | null;
                  status: number;
                  reason: string | null;
                  latencyMs: number;
                }[];
                nextCursor: string | null;
              }
            | {
                items: {
                  id: string;
                  subscriptionId: string | null;
                  webhookId: string;
                  eventType: string | null;
                  jobId: string | null;
                  attemptNumber: number;
                  status: string;
                  httpStatus: number | null;
                  deliveredAt: string | null;
                  createdAt: string;
                }[];
                nextCursor: string | null;
              };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getDeliveriesUnauthorized: {
    parameters: {
      query?: {
        minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            from: string;
            to: string;
            series: {
              key: string;
              label: string;
              total: number;
            }[];
            points: {
              t: number;
              counts: {
                [key: string]: number;
              };
            }[];
            markers: {
              subscriptionId: string;
              at: string;
              source: string;
              actor: string;
            }[];
            spikes: {
              subscriptionId: string;
              eventType: string;
              description: string | null;
              url: string;
              recent: number;
              since: string;
              lastRotationAt: string | null;
            }[];
            truncated: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getDestinations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              type: string;
              url: string;
              config: {
                [key: string]: unknown;
              } | null;
              events: string[];
              enabled: boolean;
              source: string;
              secretLast4: string;
              createdAt: string;
              disabledAt: string | null;
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postDestinations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /**
           * @default webhook
           * @enum {string}
           */
          type?: "webhook" | "postgres" | "mysql" | "s3" | "rabbitmq" | "nats" | "redis";
          url?: string;
          events: ("job.stored" | "job.dead_lettered" | "job.cancelled" | "run.completed" | "url.changed")[];
          secret?: string;
          config?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            type: string;
            url: string;
            config: {
              [key: string]: unknown;
            } | null;
            events: string[];
            enabled: boolean;
            source: string;
            secretLast4: string;
            createdAt: string;
            disabledAt: string | null;
            secret?: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postDestinationsIdDisable: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            type: string;
            url: string;
            config: {
              [key: string]: unknown;
            } | null;
            events: string[];
            enabled: boolean;
            source: string;
            secretLast4: string;
            createdAt: string;
            disabledAt: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postDestinationsIdEnable: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            type: string;
            url: string;
            config: {
              [key: string]: unknown;
            } | null;
            events: string[];
            enabled: boolean;
            source: string;
            secretLast4: string;
            createdAt: string;
            disabledAt: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "ok";
            /** @constant */
            database: "ok";
            version: string;
          };
        };
      };
      /** @description The database cannot be reached */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "unavailable";
            /** @constant */
            database: "unreachable";
            reason: string;
            version: string;
          };
        };
      };
    };
  };
  getJobs: {
    parameters: {
      query?: {
        status?: "queued" | "processing" | "completed" | "failed" | "cancelled" | "unknown";
        outcome?: "pending" | "stored" | "resubmitted" | "dead_lettered" | "cancelled";
        kind?: "extract" | "batch" | "crawl";
        q?: string;
        limit?: number;
        cursor?: string;
        from?: string;
        to?: string;
        sort?: "newest" | "oldest";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postJobs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              /** @constant */
              kind: "extract";
              /** Format: uri */
              url: string;
              formats?: ("markdown" | "html")[];
              render_js?: boolean;
              proxy?: {
                country?: string;
                /** @enum {string} */
                type?: "residential" | "datacenter" | "mix";
              };
              headers?: {
                [key: string]: string;
              } | null;
              wait_config?: {
                /** @enum {string} */
                wait_until?: "commit" | "domcontentloaded" | "load" | "networkidle";
                wait_for?: string;
                wait_timeout?: number;
              } | null;
              extract_links?: boolean;
            }
          | {
              /** @constant */
              kind: "batch";
              urls: string[];
              ignore_invalid_urls?: boolean;
              formats?: ("markdown" | "html")[];
              render_js?: boolean;
              proxy?: {
                country?: string;
                /** @enum {string} */
                type?: "residential" | "datacenter" | "mix";
              };
              headers?: {
                [key: string]: string;
              } | null;
              wait_config?: {
                /** @enum {string} */
                wait_until?: "commit" | "domcontentloaded" | "load" | "networkidle";
                wait_for?: string;
                wait_timeout?: number;
              } | null;
            }
          | {
              /** @constant */
              kind: "crawl";
              /** Format: uri */
              url: string;
              depth?: number;
              limit?: number;
              formats?: ("markdown" | "html")[];
              render_js?: boolean;
              same_domain_only?: boolean;
              include_subdomains?: boolean;
              proxy?: {
                country?: string;
                /** @enum {string} */
                type?: "residential" | "datacenter" | "mix";
              };
              wait_config?: {
                /** @enum {string} */
                wait_until?: "commit" | "domcontentloaded" | "load" | "networkidle";
                wait_for?: string;
                wait_timeout?: number;
              } | null;
            };
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      402: components["responses"]["402"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      422: components["responses"]["422"];
      429: components["responses"]["429"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
      503: components["responses"]["503"];
      504: components["responses"]["504"];
    };
  };
  getJobsJobId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        jobId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postJobsJobIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        jobId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      402: components["responses"]["402"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      422: components["responses"]["422"];
      429: components["responses"]["429"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
      503: components["responses"]["503"];
      504: components["responses"]["504"];
    };
  };
  getJobsJobIdResults: {
    parameters: {
      query?: {
        cursor?: string;
        limit?: number;
        status?: "completed" | "failed" | "cancelled";
      };
      header?: never;
      path: {
        jobId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getJobsExport: {
    parameters: {
      query?: {
        status?: "queued" | "processing" | "completed" | "failed" | "cancelled" | "unknown";
        outcome?: "pending" | "stored" | "resubmitted" | "dead_lettered" | "cancelled";
        kind?: "extract" | "batch" | "crawl";
        q?: string;
        from?: string;
        to?: string;
        sort?: "newest" | "oldest";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/csv": string;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "text/plain; version=0.0.4": string;
        };
      };
      401: components["responses"]["401"];
      /** @description The shared gauges could not be read; retry */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            error: "unavailable";
            reason: string;
          };
        };
      };
    };
  };
  getOpenapiJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getOperations: {
    parameters: {
      query?: {
        kind?: "reconcile" | "replay" | "rotate" | "poll" | "register";
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              kind: string;
              /** @enum {string} */
              state: "running" | "succeeded" | "failed";
              startedBy: string;
              startedAt: string;
              heartbeatAt: string;
              finishedAt: string | null;
              durationMs: number | null;
              params: components["schemas"]["JsonValue"] | null;
              progress: components["schemas"]["JsonValue"] | null;
              summary: components["schemas"]["JsonValue"] | null;
              error: string | null;
            }[];
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getOperationsRunId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            kind: string;
            /** @enum {string} */
            state: "running" | "succeeded" | "failed";
            params: {
              [key: string]: unknown;
            } | null;
            progress: {
              [key: string]: unknown;
            } | null;
            summary: {
              [key: string]: unknown;
            } | null;
            error: string | null;
            startedBy: string;
            startedAt: string;
            heartbeatAt: string;
            finishedAt: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getOperationsHistory: {
    parameters: {
      query?: {
        kind?: "reconcile" | "replay" | "rotate" | "poll" | "register";
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              kind: string;
              /** @enum {string} */
              state: "running" | "succeeded" | "failed";
              startedBy: string;
              startedAt: string;
              heartbeatAt: string;
              finishedAt: string | null;
              durationMs: number | null;
              params: components["schemas"]["JsonValue"] | null;
              progress: components["schemas"]["JsonValue"] | null;
              summary: components["schemas"]["JsonValue"] | null;
              error: string | null;
            }[];
            nextCursor: string | null;
            running: number;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postOperationsReconcile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          olderThanSeconds?: number;
          /** Format: date-time */
          since?: string;
          /** @enum {string} */
          scope?: "recent" | "full";
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
            alreadyRunning: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postOperationsReplay: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          subscriptionId?: string;
          /** Format: date-time */
          since?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
            alreadyRunning: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  getOutbound: {
    parameters: {
      query?: {
        destinationId?: string;
        status?: "pending" | "retrying" | "delivered" | "dead" | "skipped";
        jobId?: string;
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: number;
              destinationId: string;
              destinationUrl: string;
              eventId: string;
              eventType: string;
              jobId: string;
              status: string;
              attempts: number;
              replays: number;
              lastStatusCode: number | null;
              lastError: string | null;
              lastLatencyMs: number | null;
              nextAttemptAt: string | null;
              retryUntil: string;
              deliveredAt: string | null;
              createdAt: string;
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getOutboundId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              attempt: number;
              ok: boolean;
              statusCode: number | null;
              error: string | null;
              latencyMs: number;
              at: string;
            }[];
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getOutboundHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              destinationId: string;
              successRate: number | null;
              attempts: number;
              windowHours: number;
              byStatus: {
                [key: string]: number;
              };
              lastSuccessAt: string | null;
              lastErrorAt: string | null;
              lastError: string | null;
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postOutboundReplay: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              deliveryId: number;
            }
          | {
              destinationId: string;
              /** Format: date-time */
              since: string;
            };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            replayed: number;
            skipped: number;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getOverview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getOverviewThroughput: {
    parameters: {
      query?: {
        range?: "hour" | "day";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            ready: true;
          };
        };
      };
      /** @description Not ready; `reason` says which check failed */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            ready: false;
            /**
             * @description database_unreachable: no answer from DATABASE_URL; migrations_pending: a migration this version ships is not applied (run `npm run db:migrate`); body_store_unwritable: a probe write to TALLY_BODY_STORE failed; draining: the process got SIGTERM and is stopping
             * @enum {string}
             */
            reason: "database_unreachable" | "migrations_pending" | "body_store_unwritable" | "draining";
          };
        };
      };
    };
  };
  getResults: {
    parameters: {
      query?: {
        after?: string;
        limit?: number;
        kind?: "extract" | "batch" | "crawl";
        jobId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getResultsExport: {
    parameters: {
      query?: {
        format?: "jsonl" | "csv";
        since?: string;
        until?: string;
        kind?: "extract" | "batch" | "crawl";
        jobId?: string;
        status?: "queued" | "processing" | "completed" | "failed" | "cancelled" | "unknown";
        outcome?: "pending" | "stored" | "resubmitted" | "dead_lettered" | "cancelled";
        q?: string;
        from?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/x-ndjson": string;
          "text/csv": string;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  getRuns: {
    parameters: {
      query?: {
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              name: string;
              /** @enum {string} */
              state: "submitting" | "running" | "completed" | "cancelled";
              total: number;
              invalid: number;
              duplicates: number;
              counts: {
                pending: number;
                submitted: number;
                stored: number;
                retrying: number;
                suspect: number;
                failed: number;
              };
              chunks: {
                total: number;
                submitted: number;
              };
              duplicateSubmits: number;
              platformCalls: number;
              batchSize: number;
              createdBy: string;
              createdAt: string;
              startedAt: string | null;
              completedAt: string | null;
              etaSeconds: number | null;
              collectionId: string | null;
              trigger: ("schedule" | "manual") | null;
              changes: {
                new: number;
                changed: number;
                unchanged: number;
                gone: number;
              } | null;
              tokens: {
                charged: number;
                reserved: number;
                max: number | null;
                capReason: string | null;
                capHit: {
                  /** @enum {string} */
                  cap: "run" | "collection_month";
                  limit: number;
                  used: number;
                  wanted: number;
                  over: number;
                } | null;
              };
              rungs?: {
                rung: number;
                name: string;
                batches: number;
                urls: number;
                tokens: number;
              }[];
              checks?: {
                minTextLength: number;
                mustContain: {
                  text?: string;
                  selector?: string;
                }[];
                mustNotContain: {
                  text?: string;
                  selector?: string;
                }[];
                detectBlocks: boolean;
              };
              ladder?: {
                rung: number;
                name: string;
              }[];
              platform?: {
                jobs: number;
                duplicates: number;
                duplicateTokens: number;
              };
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postRuns: {
    parameters: {
      query?: {
        name?: string;
        batchSize?: number;
        ignoreInvalid?: "0" | "1" | "true" | "false";
        renderJs?: "0" | "1" | "true" | "false";
        formats?: string;
        maxTokens?: number;
        checks?: string;
        escalation?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name?: string;
          urls: string[];
          formats?: ("markdown" | "html")[];
          renderJs?: boolean;
          batchSize?: number;
          ignoreInvalid?: boolean;
          checks?: unknown;
          escalation?: {
            renderJs?: boolean;
            waitConfig?: {
              /** @enum {string} */
              waitUntil?: "commit" | "domcontentloaded" | "load" | "networkidle";
              waitFor?: string;
              waitTimeout?: number;
            };
            /** @enum {string} */
            proxyType?: "residential" | "datacenter" | "mix";
            proxyCountry?: string;
          }[];
          maxTokens?: number | null;
        };
        "text/plain": string;
        "text/csv": string;
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            /** @enum {string} */
            state: "submitting" | "running" | "completed" | "cancelled";
            total: number;
            invalid: number;
            duplicates: number;
            createdAt: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
    };
  };
  getRunsRunId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            /** @enum {string} */
            state: "submitting" | "running" | "completed" | "cancelled";
            total: number;
            invalid: number;
            duplicates: number;
            counts: {
              pending: number;
              submitted: number;
              stored: number;
              retrying: number;
              suspect: number;
              failed: number;
            };
            chunks: {
              total: number;
              submitted: number;
            };
            duplicateSubmits: number;
            platformCalls: number;
            batchSize: number;
            createdBy: string;
            createdAt: string;
            startedAt: string | null;
            completedAt: string | null;
            etaSeconds: number | null;
            collectionId: string | null;
            trigger: ("schedule" | "manual") | null;
            changes: {
              new: number;
              changed: number;
              unchanged: number;
              gone: number;
            } | null;
            tokens: {
              charged: number;
              reserved: number;
              max: number | null;
              capReason: string | null;
              capHit: {
                /** @enum {string} */
                cap: "run" | "collection_month";
                limit: number;
                used: number;
                wanted: number;
                over: number;
              } | null;
            };
            rungs?: {
              rung: number;
              name: string;
              batches: number;
              urls: number;
              tokens: number;
            }[];
            checks?: {
              minTextLength: number;
              mustContain: {
                text?: string;
                selector?: string;
              }[];
              mustNotContain: {
                text?: string;
                selector?: string;
              }[];
              detectBlocks: boolean;
            };
            ladder?: {
              rung: number;
              name: string;
            }[];
            platform?: {
              jobs: number;
              duplicates: number;
              duplicateTokens: number;
            };
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postRunsRunIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
            /** @enum {string} */
            state: "submitting" | "running" | "completed" | "cancelled";
            total: number;
            invalid: number;
            duplicates: number;
            counts: {
              pending: number;
              submitted: number;
              stored: number;
              retrying: number;
              suspect: number;
              failed: number;
            };
            chunks: {
              total: number;
              submitted: number;
            };
            duplicateSubmits: number;
            platformCalls: number;
            batchSize: number;
            createdBy: string;
            createdAt: string;
            startedAt: string | null;
            completedAt: string | null;
            etaSeconds: number | null;
            collectionId: string | null;
            trigger: ("schedule" | "manual") | null;
            changes: {
              new: number;
              changed: number;
              unchanged: number;
              gone: number;
            } | null;
            tokens: {
              charged: number;
              reserved: number;
              max: number | null;
              capReason: string | null;
              capHit: {
                /** @enum {string} */
                cap: "run" | "collection_month";
                limit: number;
                used: number;
                wanted: number;
                over: number;
              } | null;
            };
            rungs?: {
              rung: number;
              name: string;
              batches: number;
              urls: number;
              tokens: number;
            }[];
            checks?: {
              minTextLength: number;
              mustContain: {
                text?: string;
                selector?: string;
              }[];
              mustNotContain: {
                text?: string;
                selector?: string;
              }[];
              detectBlocks: boolean;
            };
            ladder?: {
              rung: number;
              name: string;
            }[];
            platform?: {
              jobs: number;
              duplicates: number;
              duplicateTokens: number;
            };
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getRunsRunIdChanges: {
    parameters: {
      query?: {
        change?: "new" | "changed" | "unchanged" | "gone";
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              url: string;
              /** @enum {string} */
              change: "new" | "changed" | "unchanged" | "gone";
              resultId: number | null;
              previousResultId: number | null;
            }[];
            counts: {
              new: number;
              changed: number;
              unchanged: number;
              gone: number;
            };
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getRunsRunIdExport: {
    parameters: {
      query?: {
        format?: "csv" | "jsonl";
        state?: "pending" | "submitted" | "stored" | "retrying" | "suspect" | "failed";
        changes?: "only";
      };
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/x-ndjson": string;
          "text/csv": string;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postRunsRunIdRetryFailed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  getRunsRunIdUrls: {
    parameters: {
      query?: {
        state?: "pending" | "submitted" | "stored" | "retrying" | "suspect" | "failed";
        cursor?: string;
        limit?: number;
      };
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              url: string;
              /** @enum {string} */
              state: "pending" | "submitted" | "stored" | "retrying" | "suspect" | "failed";
              attempts: number;
              jobId: string | null;
              itemKey: string | null;
              errorCode: string | null;
              errorMessage: string | null;
              storedAt: string | null;
              rung: number;
              rungsTried: string[];
              tokensCharged: number;
              checkName: string | null;
              checkExcerpt: string | null;
            }[];
            nextCursor: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getSimulatorConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            failureRate: number;
            retryableShare: number;
            itemFailureRate: number;
            rateLimitRate: number;
            serverErrorRate: number;
            slowResponseRate: number;
            webhookDropRate: number;
            webhookDuplicateRate: number;
            webhookDelayRate: number;
            earlyWebhookRate: number;
            contentChangeRate: number;
            hostilePageRate: number;
            webhookDelayMs: [number, number];
            jobDurationMs: [number, number];
            bodyBytes: [number, number];
          };
        };
      };
      401: components["responses"]["401"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postSimulatorConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          failureRate?: number;
          retryableShare?: number;
          itemFailureRate?: number;
          rateLimitRate?: number;
          serverErrorRate?: number;
          slowResponseRate?: number;
          webhookDropRate?: number;
          webhookDuplicateRate?: number;
          webhookDelayRate?: number;
          earlyWebhookRate?: number;
          contentChangeRate?: number;
          hostilePageRate?: number;
          webhookDelayMs?: [number, number];
          jobDurationMs?: [number, number];
          bodyBytes?: [number, number];
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            failureRate: number;
            retryableShare: number;
            itemFailureRate: number;
            rateLimitRate: number;
            serverErrorRate: number;
            slowResponseRate: number;
            webhookDropRate: number;
            webhookDuplicateRate: number;
            webhookDelayRate: number;
            earlyWebhookRate: number;
            contentChangeRate: number;
            hostilePageRate: number;
            webhookDelayMs: [number, number];
            jobDurationMs: [number, number];
            bodyBytes: [number, number];
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  getSubscriptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              eventType: string;
              url: string;
              isActive: boolean;
              secretLast4: string | null;
              rotatedAt: string | null;
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postSubscriptionsIdReplay401s: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
            alreadyRunning: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
    };
  };
  postSubscriptionsIdRotate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
            secret?: string;
            alreadyRunning?: boolean;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      402: components["responses"]["402"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      422: components["responses"]["422"];
      429: components["responses"]["429"];
      /** @description The platform rotated but Tally could not store the secret: enter this secret with POST /api/subscriptions/{id}/secret */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            secret: string;
            message?: string;
            /** @constant */
            error: "secret_not_stored";
            runId: string;
          };
        };
      };
      502: components["responses"]["502"];
      503: components["responses"]["503"];
      504: components["responses"]["504"];
    };
  };
  postSubscriptionsIdSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          secret: string;
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            runId: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postSubscriptionsRegister: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      401: components["responses"]["401"];
      402: components["responses"]["402"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      422: components["responses"]["422"];
      429: components["responses"]["429"];
      500: components["responses"]["500"];
      502: components["responses"]["502"];
      503: components["responses"]["503"];
      504: components["responses"]["504"];
    };
  };
  getTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              name: string;
              /** @enum {string} */
              role: "viewer" | "operator" | "admin";
              last4: string;
              owner: string | null;
              createdBy: string;
              createdAt: string;
              expiresAt: string | null;
              lastUsedAt: string | null;
              revokedAt: string | null;
              /** @enum {string} */
              state: "active" | "expired" | "revoked";
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      500: components["responses"]["500"];
    };
  };
  postTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          /** @enum {string} */
          role: "viewer" | "operator" | "admin";
          expiresInDays?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            token: string;
            name: string;
            role: string;
            expiresAt: string | null;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postTokensIdRevoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            name: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  getUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            items: {
              id: string;
              email: string;
              name: string;
              /** @enum {string} */
              role: "viewer" | "operator" | "admin";
              disabled: boolean;
              createdAt: string;
            }[];
          };
        };
      };
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      500: components["responses"]["500"];
    };
  };
  postUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          name: string;
          /** @enum {string} */
          role: "viewer" | "operator" | "admin";
          password: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "viewer" | "operator" | "admin";
            disabled: boolean;
            createdAt: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postUsersIdDisable: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "viewer" | "operator" | "admin";
            disabled: boolean;
            createdAt: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
  postUsersIdResetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          password: string;
        };
      };
    };
    responses: {
      /** @description Success (the answer's shape is not yet a zod contract) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": unknown;
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      500: components["responses"]["500"];
    };
  };
  postUsersIdRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          role: "viewer" | "operator" | "admin";
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "viewer" | "operator" | "admin";
            disabled: boolean;
            createdAt: string;
          };
        };
      };
      400: components["responses"]["400"];
      401: components["responses"]["401"];
      403: components["responses"]["403"];
      404: components["responses"]["404"];
      409: components["responses"]["409"];
      500: components["responses"]["500"];
    };
  };
}
