/// The OpenAPI 3.1 description of the API, served at `/openapi.json`. A test checks that every
/// route of ``HeraldServer`` is in it and nothing else.
enum OpenAPIDocument {
    static let json = #"""
{
 "components": {
  "responses": {
   "Error": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "An error"
   }
  },
  "schemas": {
   "App": {
    "properties": {
     "bundleId": {
      "type": "string"
     },
     "createdAt": {
      "format": "date-time",
      "type": "string"
     },
     "credentials": {
      "additionalProperties": {
       "type": "string"
      },
      "type": "object"
     },
     "defaultTimeZone": {
      "description": "IANA time zone of devices registered without one (wall-clock schedules); UTC unless set",
      "type": "string"
     },
     "destinations": {
      "additionalProperties": {
       "enum": [
        "apple",
        "sandbox",
        "none"
       ],
       "type": "string"
      },
      "description": "Per environment, where its notifications go: apple (its credential), sandbox (an app without any Apple credentials, on a server with a sandbox) or none (they fail with NoCredentials)",
      "type": "object"
     },
     "feedbackUrl": {
      "description": "Where invalid tokens are announced: POST of {event: tokens.invalidated, app, tokens: [{token, state, reason, timestamp}]} signed in the Herald-Signature header (t=UNIX seconds,v1=hex HMAC-SHA256 of \"t.body\" with the app's webhook secret); https (system roots) or http, query string kept; retried with back-off for 24 hours until a 2xx",
      "type": "string"
     },
     "id": {
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "rateLimit": {
      "type": "integer"
     },
     "teamId": {
      "type": "string"
     },
     "webhookSecret": {
      "description": "The signing secret of the webhook (Herald-Signature), only in the answer that made it: when feedbackUrl is first set, or rotated",
      "type": "string"
     }
    },
    "required": [
     "id",
     "name",
     "bundleId",
     "credentials",
     "createdAt"
    ],
    "type": "object"
   },
   "AppInput": {
    "properties": {
     "bundleId": {
      "type": "string"
     },
     "credentials": {
      "properties": {
       "development": {
        "oneOf": [
         {
          "$ref": "#/components/schemas/Credential"
         },
         {
          "type": "null"
         }
        ]
       },
       "production": {
        "oneOf": [
         {
          "$ref": "#/components/schemas/Credential"
         },
         {
          "type": "null"
         }
        ]
       }
      },
      "type": "object"
     },
     "defaultTimeZone": {
      "description": "IANA time zone, such as Europe/Paris",
      "type": "string"
     },
     "feedbackUrl": {
      "description": "https:// or http:// URL of the app's webhook",
      "format": "uri",
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "rateLimit": {
      "minimum": 1,
      "type": "integer"
     },
     "teamId": {
      "type": "string"
     }
    },
    "type": "object"
   },
   "Content": {
    "properties": {
     "message": {
      "$ref": "#/components/schemas/Message"
     },
     "payload": {
      "description": "APNs JSON (aps and custom keys)",
      "type": "object"
     }
    },
    "type": "object"
   },
   "CreatedApp": {
    "properties": {
     "apiKey": {
      "$ref": "#/components/schemas/Key"
     },
     "app": {
      "$ref": "#/components/schemas/App"
     }
    },
    "required": [
     "app",
     "apiKey"
    ],
    "type": "object"
   },
   "Credential": {
    "properties": {
     "keyId": {
      "type": "string"
     },
     "p12": {
      "description": "The .p12 file in base64",
      "type": "string"
     },
     "p8": {
      "description": "The .p8 file's PEM text",
      "type": "string"
     },
     "password": {
      "type": "string"
     }
    },
    "type": "object"
   },
   "Delivery": {
    "properties": {
     "apnsId": {
      "type": "string"
     },
     "attempts": {
      "type": "integer"
     },
     "finishedAt": {
      "format": "date-time",
      "type": "string"
     },
     "nextAttemptAt": {
      "description": "A queued delivery being retried: when its next attempt is",
      "format": "date-time",
      "type": "string"
     },
     "notificationId": {
      "type": "string"
     },
     "queuedAt": {
      "format": "date-time",
      "type": "string"
     },
     "reason": {
      "type": "string"
     },
     "state": {
      "enum": [
       "queued",
       "sent",
       "failed",
       "expired"
      ],
      "type": "string"
     },
     "status": {
      "type": "integer"
     },
     "summary": {
      "description": "In words: pending, pending (retrying: ConnectionFailed, attempt 2, next at …), sent, failed: REASON, expired",
      "type": "string"
     },
     "token": {
      "type": "string"
     }
    },
    "required": [
     "notificationId",
     "token",
     "state",
     "attempts",
     "queuedAt"
    ],
    "type": "object"
   },
   "Device": {
    "properties": {
     "appVersion": {
      "type": "string"
     },
     "encryptionKey": {
      "description": "the device's Curve25519 public key (base64, 32 bytes) for sealed alerts",
      "type": "string"
     },
     "environment": {
      "type": "string"
     },
     "kind": {
      "type": "string"
     },
     "locale": {
      "type": "string"
     },
     "registeredAt": {
      "format": "date-time",
      "type": "string"
     },
     "state": {
      "enum": [
       "active",
       "unregistered",
       "invalid"
      ],
      "type": "string"
     },
     "stateChangedAt": {
      "format": "date-time",
      "type": "string"
     },
     "stateReason": {
      "type": "string"
     },
     "tags": {
      "items": {
       "type": "string"
      },
      "type": "array"
     },
     "timeZone": {
      "type": "string"
     },
     "token": {
      "type": "string"
     },
     "userId": {
      "type": "string"
     }
    },
    "required": [
     "token",
     "environment",
     "kind",
     "tags",
     "registeredAt",
     "state"
    ],
    "type": "object"
   },
   "DeviceInput": {
    "properties": {
     "appVersion": {
      "type": "string"
     },
     "encryptionKey": {
      "description": "the device's Curve25519 public key (base64, 32 bytes): alerts sent with seal are sealed for it",
      "type": "string"
     },
     "environment": {
      "enum": [
       "production",
       "development"
      ],
      "type": "string"
     },
     "kind": {
      "enum": [
       "alert",
       "voip",
       "liveactivity",
       "push-to-start"
      ],
      "type": "string"
     },
     "locale": {
      "type": "string"
     },
     "tags": {
      "items": {
       "type": "string"
      },
      "type": "array"
     },
     "timeZone": {
      "type": "string"
     },
     "userId": {
      "type": "string"
     }
    },
    "required": [
     "environment"
    ],
    "type": "object"
   },
   "Diagnostic": {
    "properties": {
     "code": {
      "type": "string"
     },
     "fix": {
      "type": "string"
     },
     "header": {
      "type": "string"
     },
     "message": {
      "type": "string"
     },
     "path": {
      "type": "string"
     },
     "severity": {
      "type": "string"
     },
     "variant": {
      "type": "string"
     }
    },
    "required": [
     "code",
     "severity",
     "message"
    ],
    "type": "object"
   },
   "Error": {
    "properties": {
     "error": {
      "properties": {
       "code": {
        "type": "string"
       },
       "diagnostics": {
        "items": {
         "$ref": "#/components/schemas/Diagnostic"
        },
        "type": "array"
       },
       "message": {
        "type": "string"
       }
      },
      "required": [
       "code",
       "message"
      ],
      "type": "object"
     }
    },
    "required": [
     "error"
    ],
    "type": "object"
   },
   "Health": {
    "properties": {
     "apns": {
      "description": "Routes to APNs (app and environment) that failed lately, with their circuit",
      "items": {
       "properties": {
        "app": {
         "type": "string"
        },
        "circuit": {
         "enum": [
          "closed",
          "open",
          "probing"
         ],
         "type": "string"
        },
        "environment": {
         "type": "string"
        },
        "failingSeconds": {
         "type": "number"
        },
        "failures": {
         "type": "integer"
        },
        "nextProbeAt": {
         "format": "date-time",
         "type": "string"
        },
        "reason": {
         "type": "string"
        }
       },
       "type": "object"
      },
      "type": "array"
     },
     "node": {
      "type": "string"
     },
     "oldestPendingSeconds": {
      "type": "number"
     },
     "problems": {
      "description": "Why the server is not ready, in words",
      "items": {
       "type": "string"
      },
      "type": "array"
     },
     "queueDepth": {
      "type": "integer"
     },
     "ready": {
      "type": "boolean"
     },
     "retrying": {
      "description": "Queued deliveries waiting for a retry",
      "type": "integer"
     },
     "status": {
      "enum": [
       "ok",
       "degraded",
       "unavailable"
      ],
      "type": "string"
     },
     "store": {
      "properties": {
       "answeredSecondsAgo": {
        "type": "number"
       },
       "error": {
        "type": "string"
       },
       "ok": {
        "type": "boolean"
       }
      },
      "type": "object"
     },
     "writes": {
      "description": "Outcomes answered by APNs and not yet written to the store",
      "properties": {
       "error": {
        "type": "string"
       },
       "failingSeconds": {
        "type": "number"
       },
       "ok": {
        "type": "boolean"
       },
       "waiting": {
        "type": "integer"
       }
      },
      "type": "object"
     }
    },
    "required": [
     "status",
     "ready",
     "node",
     "problems",
     "store",
     "writes",
     "apns"
    ],
    "type": "object"
   },
   "Key": {
    "properties": {
     "appId": {
      "type": "string"
     },
     "createdAt": {
      "format": "date-time",
      "type": "string"
     },
     "id": {
      "type": "string"
     },
     "secret": {
      "description": "Only in the answer that creates the key",
      "type": "string"
     }
    },
    "required": [
     "id",
     "createdAt"
    ],
    "type": "object"
   },
   "Message": {
    "properties": {
     "badge": {
      "type": "integer"
     },
     "body": {
      "type": "string"
     },
     "category": {
      "type": "string"
     },
     "data": {
      "type": "object"
     },
     "mutableContent": {
      "type": "boolean"
     },
     "sound": {
      "type": "string"
     },
     "subtitle": {
      "type": "string"
     },
     "threadId": {
      "type": "string"
     },
     "title": {
      "type": "string"
     }
    },
    "required": [
     "body"
    ],
    "type": "object"
   },
   "Report": {
    "properties": {
     "audienceSize": {
      "type": "integer"
     },
     "createdAt": {
      "format": "date-time",
      "type": "string"
     },
     "deliveries": {
      "items": {
       "$ref": "#/components/schemas/Delivery"
      },
      "type": "array"
     },
     "expired": {
      "type": "integer"
     },
     "failed": {
      "type": "integer"
     },
     "failedByReason": {
      "additionalProperties": {
       "type": "integer"
      },
      "type": "object"
     },
     "id": {
      "type": "string"
     },
     "pending": {
      "type": "integer"
     },
     "retryingByReason": {
      "additionalProperties": {
       "type": "integer"
      },
      "description": "Of the pending, those waiting for a retry, by the last attempt's reason (APNs' reason, or ConnectionFailed, TLSFailure, Timeout, ConnectionLost)",
      "type": "object"
     },
     "scheduleId": {
      "type": "string"
     },
     "sent": {
      "type": "integer"
     }
    },
    "required": [
     "id",
     "createdAt",
     "audienceSize",
     "sent",
     "failed",
     "failedByReason",
     "expired",
     "pending"
    ],
    "type": "object"
   },
   "Schedule": {
    "properties": {
     "createdAt": {
      "format": "date-time",
      "type": "string"
     },
     "fireCount": {
      "type": "integer"
     },
     "firedThrough": {
      "additionalProperties": {
       "format": "date-time",
       "type": "string"
      },
      "type": "object"
     },
     "id": {
      "type": "string"
     },
     "nextCheckAt": {
      "format": "date-time",
      "type": "string"
     },
     "notification": {
      "$ref": "#/components/schemas/SendRequest"
     },
     "trigger": {
      "$ref": "#/components/schemas/Trigger"
     }
    },
    "required": [
     "id",
     "trigger",
     "notification",
     "nextCheckAt",
     "fireCount",
     "firedThrough",
     "createdAt"
    ],
    "type": "object"
   },
   "ScheduleInput": {
    "properties": {
     "id": {
      "type": "string"
     },
     "notification": {
      "$ref": "#/components/schemas/SendRequest"
     },
     "trigger": {
      "$ref": "#/components/schemas/Trigger"
     }
    },
    "required": [
     "trigger",
     "notification"
    ],
    "type": "object"
   },
   "SendRequest": {
    "properties": {
     "collapseId": {
      "type": "string"
     },
     "expiration": {
      "description": "UNIX seconds; 0 = now or never",
      "type": "integer"
     },
     "idempotencyKey": {
      "type": "string"
     },
     "seal": {
      "description": "an alert sealed end to end per device (HeraldKit opens it); message or payload is the fallback text",
      "properties": {
       "body": {
        "type": "string"
       },
       "subtitle": {
        "type": "string"
       },
       "title": {
        "type": "string"
       }
      },
      "type": "object"
     },
     "locales": {
      "additionalProperties": {
       "$ref": "#/components/schemas/Content"
      },
      "description": "Per language tag; devices whose locale matches none get the top-level content",
      "type": "object"
     },
     "message": {
      "$ref": "#/components/schemas/Message"
     },
     "payload": {
      "description": "APNs JSON (aps and custom keys)",
      "type": "object"
     },
     "priority": {
      "description": "apns-priority; default 5 for a background push, 10 otherwise",
      "enum": [
       10,
       5,
       1
      ],
      "type": "integer"
     },
     "pushType": {
      "description": "apns-push-type; default inferred from the payload. mdm and fileprovider are refused (their tokens are not app tokens)",
      "type": "string"
     },
     "to": {
      "properties": {
       "all": {
        "type": "boolean"
       },
       "match": {
        "enum": [
         "any",
         "all"
        ],
        "type": "string"
       },
       "tags": {
        "items": {
         "type": "string"
        },
        "type": "array"
       },
       "tokens": {
        "items": {
         "type": "string"
        },
        "type": "array"
       },
       "users": {
        "items": {
         "type": "string"
        },
        "type": "array"
       }
      },
      "type": "object"
     }
    },
    "required": [
     "to"
    ],
    "type": "object"
   },
   "SendResult": {
    "properties": {
     "audienceSize": {
      "type": "integer"
     },
     "diagnostics": {
      "items": {
       "$ref": "#/components/schemas/Diagnostic"
      },
      "type": "array"
     },
     "duplicate": {
      "type": "boolean"
     },
     "id": {
      "type": "string"
     },
     "note": {
      "type": "string"
     },
     "report": {
      "$ref": "#/components/schemas/Report"
     },
     "results": {
      "items": {
       "$ref": "#/components/schemas/Delivery"
      },
      "type": "array"
     }
    },
    "required": [
     "id",
     "audienceSize",
     "duplicate"
    ],
    "type": "object"
   },
   "Trigger": {
    "properties": {
     "after": {
      "minimum": 1,
      "type": "integer"
     },
     "at": {
      "format": "date-time",
      "type": "string"
     },
     "daily": {
      "pattern": "^[0-2][0-9]:[0-5][0-9]$",
      "type": "string"
     },
     "every": {
      "minimum": 60,
      "type": "integer"
     },
     "weekly": {
      "properties": {
       "time": {
        "type": "string"
       },
       "weekday": {
        "maximum": 7,
        "minimum": 1,
        "type": "integer"
       }
      },
      "required": [
       "weekday",
       "time"
      ],
      "type": "object"
     }
    },
    "type": "object"
   }
  },
  "securitySchemes": {
   "adminKey": {
    "description": "The admin key printed on first start",
    "scheme": "bearer",
    "type": "http"
   },
   "appKey": {
    "description": "An app's API key",
    "scheme": "bearer",
    "type": "http"
   }
  }
 },
 "info": {
  "description": "Registers device tokens, sends notifications through APNs (or Herald's sandbox), schedules them and reports what became of each.",
  "title": "Herald App Server",
  "version": "1.0.0"
 },
 "openapi": "3.1.0",
 "paths": {
  "/health": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      },
      "description": "OK"
     }
    },
    "security": [],
    "summary": "Liveness: 200 while the process answers, with the health report (status ok or degraded), from memory",
    "tags": [
     "operations"
    ]
   }
  },
  "/metrics": {
   "get": {
    "responses": {
     "200": {
      "description": "OK"
     }
    },
    "security": [],
    "summary": "Prometheus metrics (text format)",
    "tags": [
     "operations"
    ]
   }
  },
  "/openapi.json": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      },
      "description": "OK"
     }
    },
    "security": [],
    "summary": "This document",
    "tags": [
     "operations"
    ]
   }
  },
  "/ready": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      },
      "description": "OK"
     },
     "503": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      },
      "description": "Not ready; problems says why"
     }
    },
    "security": [],
    "summary": "Readiness: 503 with the reasons while the store does not answer, outcomes cannot be recorded, or a route to APNs is unreachable (circuit open)",
    "tags": [
     "operations"
    ]
   }
  },
  "/v1/apps": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "apps": {
           "items": {
            "$ref": "#/components/schemas/App"
           },
           "type": "array"
          }
         },
         "required": [
          "apps"
         ],
         "type": "object"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "List apps",
    "tags": [
     "apps"
    ]
   },
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/AppInput"
       }
      }
     },
     "required": true
    },
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/CreatedApp"
        }
       }
      },
      "description": "Created"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "Create an app and its first API key (shown once)",
    "tags": [
     "apps"
    ]
   }
  },
  "/v1/apps/{app}": {
   "get": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/App"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     },
     {
      "appKey": []
     }
    ],
    "summary": "Show an app (admin key or the app's own key)",
    "tags": [
     "apps"
    ]
   },
   "patch": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/AppInput"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/App"
        }
       }
      },
      "description": "OK"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "Change an app's name, credentials, rate limit or feedback URL",
    "tags": [
     "apps"
    ]
   }
  },
  "/v1/apps/{app}/keys": {
   "get": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "keys": {
           "items": {
            "$ref": "#/components/schemas/Key"
           },
           "type": "array"
          }
         },
         "required": [
          "keys"
         ],
         "type": "object"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "List the app's keys (without secrets)",
    "tags": [
     "apps"
    ]
   },
   "post": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Key"
        }
       }
      },
      "description": "Created"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "Create another API key for the app (secret shown once)",
    "tags": [
     "apps"
    ]
   }
  },
  "/v1/apps/{app}/keys/{key}": {
   "delete": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "The key's id (key_…)",
      "in": "path",
      "name": "key",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Revoked"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "Revoke a key",
    "tags": [
     "apps"
    ]
   }
  },
  "/v1/apps/{app}/webhook-secret": {
   "post": {
    "parameters": [
     {
      "description": "The app's id (app_…)",
      "in": "path",
      "name": "app",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "webhookSecret": {
           "type": "string"
          }
         },
         "type": "object"
        }
       }
      },
      "description": "The new secret"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "adminKey": []
     }
    ],
    "summary": "A new webhook signing secret for the app (admin key), shown in this answer only; the old one stops signing at once",
    "tags": [
     "apps"
    ]
   }
  },
  "/v1/devices": {
   "get": {
    "parameters": [
     {
      "description": "The app's user id",
      "in": "query",
      "name": "user",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "devices": {
           "items": {
            "$ref": "#/components/schemas/Device"
           },
           "type": "array"
          }
         },
         "required": [
          "devices"
         ],
         "type": "object"
        }
       }
      },
      "description": "OK"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "List a user's devices",
    "tags": [
     "devices"
    ]
   }
  },
  "/v1/devices/{token}": {
   "delete": {
    "parameters": [
     {
      "description": "The device token in hex",
      "in": "path",
      "name": "token",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Unregistered"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Unregister a device",
    "tags": [
     "devices"
    ]
   },
   "get": {
    "parameters": [
     {
      "description": "The device token in hex",
      "in": "path",
      "name": "token",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Device"
        }
       }
      },
      "description": "OK"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Show a device",
    "tags": [
     "devices"
    ]
   },
   "put": {
    "parameters": [
     {
      "description": "The device token in hex",
      "in": "path",
      "name": "token",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/DeviceInput"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Device"
        }
       }
      },
      "description": "Updated (201 when new)"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Register or update a device token (idempotent)",
    "tags": [
     "devices"
    ]
   }
  },
  "/v1/devices/{token}/deliveries": {
   "get": {
    "parameters": [
     {
      "description": "The device token in hex",
      "in": "path",
      "name": "token",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "How many at most",
      "in": "query",
      "name": "limit",
      "required": false,
      "schema": {
       "type": "integer"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "deliveries": {
           "items": {
            "$ref": "#/components/schemas/Delivery"
           },
           "type": "array"
          }
         },
         "required": [
          "deliveries"
         ],
         "type": "object"
        }
       }
      },
      "description": "OK"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "A device's recent deliveries, newest first",
    "tags": [
     "devices"
    ]
   }
  },
  "/v1/notifications": {
   "post": {
    "parameters": [
     {
      "description": "true: wait for the results (small audiences)",
      "in": "query",
      "name": "wait",
      "required": false,
      "schema": {
       "type": "boolean"
      }
     },
     {
      "in": "header",
      "name": "Idempotency-Key",
      "required": false,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/SendRequest"
       }
      }
     },
     "required": true
    },
    "responses": {
     "202": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SendResult"
        }
       }
      },
      "description": "Accepted (200 with wait=true when all are done)"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     },
     "422": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Send a notification; answers at once (202) or, with wait=true, with each device's result",
    "tags": [
     "notifications"
    ]
   }
  },
  "/v1/notifications/{id}": {
   "get": {
    "parameters": [
     {
      "description": "The notification's id",
      "in": "path",
      "name": "id",
      "required": true,
      "schema": {
       "type": "string"
      }
     },
     {
      "description": "true: include the deliveries",
      "in": "query",
      "name": "deliveries",
      "required": false,
      "schema": {
       "type": "boolean"
      }
     },
     {
      "description": "How many at most",
      "in": "query",
      "name": "limit",
      "required": false,
      "schema": {
       "type": "integer"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Report"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "A notification's report: audience, sent, failed by reason, pending",
    "tags": [
     "notifications"
    ]
   }
  },
  "/v1/schedules": {
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "properties": {
          "schedules": {
           "items": {
            "$ref": "#/components/schemas/Schedule"
           },
           "type": "array"
          }
         },
         "required": [
          "schedules"
         ],
         "type": "object"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "List pending schedules",
    "tags": [
     "schedules"
    ]
   },
   "post": {
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ScheduleInput"
       }
      }
     },
     "required": true
    },
    "responses": {
     "201": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Schedule"
        }
       }
      },
      "description": "Created (200 when replaced)"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     },
     "422": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Schedule a notification (an existing id is replaced)",
    "tags": [
     "schedules"
    ]
   }
  },
  "/v1/schedules/{id}": {
   "delete": {
    "parameters": [
     {
      "description": "The schedule's identifier",
      "in": "path",
      "name": "id",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Cancelled"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Cancel a pending schedule",
    "tags": [
     "schedules"
    ]
   },
   "get": {
    "parameters": [
     {
      "description": "The schedule's identifier",
      "in": "path",
      "name": "id",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Schedule"
        }
       }
      },
      "description": "OK"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "404": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Show a pending schedule",
    "tags": [
     "schedules"
    ]
   },
   "put": {
    "parameters": [
     {
      "description": "The schedule's identifier",
      "in": "path",
      "name": "id",
      "required": true,
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ScheduleInput"
       }
      }
     },
     "required": true
    },
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Schedule"
        }
       }
      },
      "description": "Replaced (201 when new)"
     },
     "400": {
      "$ref": "#/components/responses/Error"
     },
     "401": {
      "$ref": "#/components/responses/Error"
     },
     "403": {
      "$ref": "#/components/responses/Error"
     },
     "413": {
      "$ref": "#/components/responses/Error"
     },
     "422": {
      "$ref": "#/components/responses/Error"
     }
    },
    "security": [
     {
      "appKey": []
     }
    ],
    "summary": "Create or replace the schedule with this id",
    "tags": [
     "schedules"
    ]
   }
  }
 },
 "servers": [
  {
   "url": "http://127.0.0.1:8080"
  }
 ]
}
"""#
}
