-- The platform_errors alert reads ApiCallMinute (answer classes 5xx, timeout, network) instead.
DROP TABLE "PlatformCallMinute";
