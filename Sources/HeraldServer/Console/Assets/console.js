// The Herald console: pages over the App Server's own JSON API (the same routes as
// /openapi.json). Signed in with a session cookie the script cannot read; calls that change
// something carry the session's CSRF token. Every page is drawn with DOM nodes, never with
// HTML made from data.

const state = {
  generation: 0, // bumped by every render: a page whose render is no longer the latest draws nothing
  session: null, // {csrfToken, app, admin, keyId, expiresAt}
  apps: [],
  app: null, // the app the pages act on
  timers: [],
  streams: [], // EventSources of the page shown
  composeTo: null, // a simulated iPhone's token, when Compose is opened from its page
};

// ---------- DOM helpers ----------

/** An element: h("button", {class: "primary", onclick: f}, "Send"). */
function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let fieldCount = 0;
/** A labelled control: the label is tied to the control by id. */
function field(labelText, control, hint) {
  const id = control.id || `f${++fieldCount}`;
  control.id = id;
  const hintNode = hint ? h("span", { class: "hint", id: `${id}-hint` }, hint) : null;
  const problem = h("span", { class: "inline-error", id: `${id}-problem` });
  control.setAttribute("aria-describedby", [hintNode?.id, problem.id].filter(Boolean).join(" "));
  return h("div", { class: "field" }, h("label", { for: id }, labelText), control, hintNode, problem);
}

function input(name, props = {}) {
  return h("input", { type: "text", name, autocomplete: "off", ...props });
}

function badge(text) {
  return h("span", { class: `badge ${String(text).toLowerCase()}` }, text);
}

function when(date) {
  if (!date) return "—";
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? String(date) : d.toLocaleString();
}

function say(message, kind = "ok") {
  const region = document.getElementById("status");
  region.replaceChildren(h("div", { class: `message ${kind}` }, message));
  if (kind === "ok") setTimeout(() => { if (region.textContent === message) region.replaceChildren(); }, 5000);
}

function clearStatus() {
  document.getElementById("status").replaceChildren();
}

function empty(text) {
  return h("div", { class: "empty" }, text);
}

/** A button copying what `node` shows when it is pressed. */
function copyShown(node, label) {
  return h("button", {
    type: "button", onclick: async (event) => {
      try { await navigator.clipboard.writeText(node.textContent); event.target.textContent = "Copied"; }
      catch { say("The browser did not allow copying; select the text instead.", "error"); }
    },
  }, label);
}

function copyButton(text, label = "Copy") {
  return h("button", {
    type: "button", onclick: async (event) => {
      try { await navigator.clipboard.writeText(text); event.target.textContent = "Copied"; }
      catch { say("The browser did not allow copying; select the text instead.", "error"); }
    },
  }, label);
}

// ---------- the API ----------

class APIError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code;
    this.diagnostics = body?.error?.diagnostics ?? [];
  }
}

/** Calls the JSON API with the session cookie; `app` names the app for an admin session. */
async function api(method, path, body, options = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (state.session && method !== "GET") headers["X-CSRF-Token"] = state.session.csrfToken;
  const app = options.app ?? state.app;
  if (state.session?.admin && app && options.appScoped !== false) headers["Herald-App"] = app;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (response.status === 401 && !(path === "/v1/session" && method !== "DELETE")) {
    state.session = null;
    showSignIn("Your session has ended; sign in again.");
    throw new APIError(401, json);
  }
  if (!response.ok) throw new APIError(response.status, json);
  return json;
}

/** Runs an action, showing what went wrong instead of failing silently. */
async function attempt(action, success) {
  try {
    const result = await action();
    if (success) say(success);
    return result;
  } catch (error) {
    if (error.status !== 401) say(error.message, "error");
    return undefined;
  }
}

// ---------- sign-in ----------

function showSignIn(message) {
  state.generation += 1;
  stopTimers();
  document.getElementById("top").hidden = true;
  const key = input("key", { type: "password", autocomplete: "current-password", required: true, spellcheck: "false" });
  const problem = h("p", { class: "inline-error", role: "alert" }, message ?? "");
  const form = h("form", {
    class: "panel signin", "aria-labelledby": "signin-title",
    onsubmit: async (event) => {
      event.preventDefault();
      problem.textContent = "";
      try {
        state.session = await api("POST", "/v1/session", { key: key.value });
        key.value = "";
        await start();
      } catch (error) {
        problem.textContent = error.message;
        key.setAttribute("aria-invalid", "true");
        key.focus();
      }
    },
  },
    h("h1", { id: "signin-title" }, h("img", { src: "/console/icon.svg", alt: "", width: 32, height: 32 }), "Herald console"),
    h("p", {}, "Sign in with the admin key ", h("code", {}, "herald serve"), " printed when it first started, or with an app's API key."),
    field("API key", key, "Kept by this browser only as a session cookie scripts cannot read; signing out ends it."),
    problem,
    h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Sign in")),
  );
  document.getElementById("main").replaceChildren(form);
  key.focus();
}

async function signOut() {
  try {
    await api("DELETE", "/v1/session", undefined, { appScoped: false });
  } catch (error) {
    if (error.status !== 401) { say(`Not signed out: ${error.message}`, "error"); return; }
  }
  state.session = null;
  state.apps = [];
  state.app = null;
  location.hash = "#/apps";
  showSignIn("Signed out.");
}

// ---------- the frame ----------

async function start() {
  document.getElementById("top").hidden = false;
  document.getElementById("who").textContent = state.session.admin ? "admin" : `app key of ${state.session.app}`;
  document.getElementById("nav-sandbox").parentElement.hidden = !state.session.admin;
  await loadApps();
  if (!location.hash.startsWith("#/")) {
    // The hash change draws the page.
    location.hash = state.apps.length ? "#/compose" : "#/apps";
    return;
  }
  render();
}

async function loadApps() {
  if (state.session.admin) {
    const answer = await attempt(() => api("GET", "/v1/apps", undefined, { appScoped: false }));
    state.apps = answer?.apps ?? answer ?? [];
  } else {
    const app = await attempt(() => api("GET", `/v1/apps/${state.session.app}`, undefined, { appScoped: false }));
    state.apps = app ? [app] : [{ id: state.session.app, name: state.session.app }];
  }
  const remembered = sessionStorage.getItem("herald.app");
  if (!state.apps.some((app) => app.id === state.app)) {
    state.app = state.apps.find((app) => app.id === remembered)?.id ?? state.apps[0]?.id ?? null;
  }
  const picker = document.getElementById("app-picker");
  picker.replaceChildren(...state.apps.map((app) => h("option", { value: app.id, selected: app.id === state.app }, `${app.name} (${app.bundleId ?? app.id})`)));
  picker.disabled = !state.session.admin || state.apps.length < 2;
  picker.hidden = state.apps.length === 0;
}

function chooseApp(id) {
  state.app = id;
  sessionStorage.setItem("herald.app", id);
  document.getElementById("app-picker").value = id;
}

function stopTimers() {
  for (const timer of state.timers) clearTimeout(timer);
  state.timers = [];
  for (const stream of state.streams) stream.close();
  state.streams = [];
}

/** Runs `task` every `ms` after the previous run finished, while the page that asked is shown. */
function every(ms, task) {
  const generation = state.generation;
  const tick = async () => {
    if (generation !== state.generation || !state.session) return;
    try { await task(); } catch { /* shown by the task itself */ }
    if (generation !== state.generation || !state.session) return;
    state.timers.push(setTimeout(tick, ms));
  };
  state.timers.push(setTimeout(tick, ms));
}

const pages = [
  [/^#\/apps\/([^/]+)$/, (id) => appPage(id)],
  [/^#\/apps$/, () => appsPage()],
  [/^#\/devices$/, () => devicesPage()],
  [/^#\/compose$/, () => composePage()],
  [/^#\/notifications\/([^/]+)$/, (id) => notificationPage(id)],
  [/^#\/notifications$/, () => notificationsPage()],
  [/^#\/schedules$/, () => schedulesPage()],
  [/^#\/sandbox$/, () => sandboxPage()],
  [/^#\/iphone$/, () => phonePage()],
];

async function render() {
  if (!state.session) return;
  const hash = location.hash || "#/apps";
  // A link within the page (the skip link) is not a page.
  if (!hash.startsWith("#/")) return;
  const generation = ++state.generation;
  stopTimers();
  clearStatus();
  for (const link of document.querySelectorAll("#nav a")) {
    const current = hash === link.getAttribute("href") || hash.startsWith(`${link.getAttribute("href")}/`);
    if (current) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  const main = document.getElementById("main");
  for (const [pattern, page] of pages) {
    const match = hash.match(pattern);
    if (!match) continue;
    let content;
    try {
      content = await page(...match.slice(1).map((part) => { try { return decodeURIComponent(part); } catch { return part; } }));
    } catch (error) {
      content = [h("h1", {}, "Something went wrong"), empty(error.message)];
    }
    // Another page was asked for meanwhile, or the session ended: this one is not drawn.
    if (generation !== state.generation || !state.session) return;
    main.replaceChildren(...[content].flat());
    const heading = main.querySelector("h1");
    document.title = `${heading?.textContent ?? "Herald"} · Herald console`;
    main.focus({ preventScroll: true });
    return;
  }
  main.replaceChildren(h("h1", {}, "Not found"), empty("There is no such page."), h("a", { href: "#/apps" }, "Go to the apps"));
}

function needsApp() {
  if (state.app) return null;
  return [h("h1", {}, "No app yet"), empty(state.session.admin ? "Create an app first: it is where devices register and notifications are sent from." : "This key's app was not found.") , h("p", {}, h("a", { href: "#/apps" }, "Go to Apps"))];
}

// ---------- Apps ----------

async function appsPage() {
  const list = h("div", { class: "table-wrap" });
  const draw = () => {
    if (!state.apps.length) { list.replaceChildren(empty("No apps yet. Create one below; its notifications go to the sandbox until it has Apple credentials.")); return; }
    list.replaceChildren(h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Bundle id"), h("th", { scope: "col" }, "Development"), h("th", { scope: "col" }, "Production"), h("th", { scope: "col" }, "Id"))),
      h("tbody", {}, state.apps.map((app) => h("tr", {},
        h("td", {}, h("a", { href: `#/apps/${encodeURIComponent(app.id)}` }, app.name)),
        h("td", { class: "mono" }, app.bundleId ?? ""),
        h("td", {}, app.destinations?.development ?? ""),
        h("td", {}, app.destinations?.production ?? ""),
        h("td", { class: "mono" }, app.id),
      )))));
  };
  draw();
  const parts = [h("h1", {}, "Apps"), h("section", { class: "panel", "aria-label": "Apps" }, list)];
  if (state.session.admin) {
    const name = input("name", { required: true });
    const bundle = input("bundleId", { required: true, placeholder: "com.example.app", spellcheck: "false" });
    const team = input("teamId", { placeholder: "optional", spellcheck: "false" });
    const created = h("div");
    parts.push(h("section", { class: "panel", "aria-labelledby": "new-app" },
      h("h2", { id: "new-app" }, "New app"),
      h("form", {
        onsubmit: async (event) => {
          event.preventDefault();
          const body = { name: name.value.trim(), bundleId: bundle.value.trim() };
          if (team.value.trim()) body.teamId = team.value.trim();
          const answer = await attempt(() => api("POST", "/v1/apps", body, { appScoped: false }), `Created ${body.name}.`);
          if (!answer) return;
          await loadApps();
          chooseApp(answer.app.id);
          draw();
          name.value = ""; bundle.value = ""; team.value = "";
          created.replaceChildren(secretNote("The app's API key (shown once; the console does not need it):", answer.apiKey.secret));
        },
      },
        h("div", { class: "row" }, field("Name", name), field("Bundle id", bundle, "The apns-topic of its alerts."), field("Team id", team)),
        h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Create app"))),
      created));
  }
  return parts;
}

function secretNote(text, secret) {
  return h("div", { class: "field" }, h("span", { class: "label" }, text), h("div", { class: "secret" }, h("code", { "data-secret": "" }, secret), copyButton(secret)));
}

async function appPage(id) {
  chooseApp(id);
  const app = await attempt(() => api("GET", `/v1/apps/${encodeURIComponent(id)}`, undefined, { appScoped: false }));
  if (!app) return [h("h1", {}, "App"), empty("This app could not be read.")];
  const parts = [h("h1", {}, app.name), h("p", { class: "muted" }, h("code", {}, app.id), " · ", h("code", {}, app.bundleId))];

  if (!state.session.admin) {
    parts.push(h("section", { class: "panel", "aria-labelledby": "destinations" }, h("h2", { id: "destinations" }, "Where its notifications go"),
      h("ul", {}, ["development", "production"].map((environment) => h("li", {}, `${environment}: `, badge(app.destinations?.[environment] ?? "none")))),
      h("p", { class: "hint" }, "Credentials, keys and limits are managed with the admin key.")));
    return parts;
  }

  // Settings.
  const rate = input("rateLimit", { type: "number", min: 1, value: app.rateLimit ?? "" });
  const hook = input("feedbackUrl", { type: "url", value: app.feedbackUrl ?? "", placeholder: "https://example.com/herald-feedback" });
  const zone = input("defaultTimeZone", { value: app.defaultTimeZone ?? "", placeholder: "UTC" });
  const settingsNote = h("div");
  parts.push(h("section", { class: "panel", "aria-labelledby": "settings" }, h("h2", { id: "settings" }, "Settings"),
    h("form", {
      onsubmit: async (event) => {
        event.preventDefault();
        const body = {
          rateLimit: rate.value ? Number(rate.value) : null,
          feedbackUrl: hook.value.trim() || null,
          defaultTimeZone: zone.value.trim() || null,
        };
        const answer = await attempt(() => api("PATCH", `/v1/apps/${encodeURIComponent(id)}`, body, { appScoped: false }), "Saved.");
        if (answer?.webhookSecret) settingsNote.replaceChildren(secretNote("The webhook's signing secret (shown once):", answer.webhookSecret));
      },
    },
      h("div", { class: "row" },
        field("Rate limit (notifications a second)", rate, "Empty: no limit."),
        field("Webhook for invalid tokens", hook),
        field("Default time zone", zone, "For daily and weekly schedules of devices that gave none.")),
      h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Save settings")), settingsNote)));

  // Credentials per environment.
  const credentials = h("section", { class: "panel", "aria-labelledby": "credentials" }, h("h2", { id: "credentials" }, "Where its notifications go"));
  for (const environment of ["development", "production"]) {
    credentials.append(credentialForm(app, environment));
  }
  parts.push(credentials);

  // API keys.
  parts.push(await keysPanel(app));

  {
    parts.push(h("section", { class: "panel", "aria-labelledby": "danger" }, h("h2", { id: "danger" }, "Delete"),
      h("p", {}, "Deleting the app deletes its keys, devices, notifications and schedules."),
      h("button", {
        class: "danger", type: "button", onclick: async () => {
          if (!confirm(`Delete ${app.name} and everything it holds?`)) return;
          if (await attempt(() => api("DELETE", `/v1/apps/${encodeURIComponent(id)}`, undefined, { appScoped: false }), `Deleted ${app.name}.`) !== undefined) {
            state.app = null;
            await loadApps();
            location.hash = "#/apps";
          }
        },
      }, "Delete this app")));
  }
  return parts;
}

function credentialForm(app, environment) {
  const destination = app.destinations?.[environment] ?? "none";
  const kind = h("select", { name: "kind" }, h("option", { value: "p8" }, "Token key (.p8)"), h("option", { value: "p12" }, "Certificate (.p12)"));
  const file = h("input", { type: "file", name: "file", accept: ".p8,.p12,.pem" });
  const keyId = input("keyId", { placeholder: "ABC123DEFG", spellcheck: "false" });
  const teamId = input("teamId", { value: app.teamId ?? "", placeholder: "DEF123GHIJ", spellcheck: "false" });
  const password = input("password", { type: "password", autocomplete: "new-password" });
  const tokenFields = h("div", { class: "row" }, field("Key id", keyId), field("Team id", teamId));
  const certificateFields = h("div", { class: "row", hidden: true }, field("Certificate password", password));
  kind.addEventListener("change", () => {
    tokenFields.hidden = kind.value !== "p8";
    certificateFields.hidden = kind.value !== "p12";
  });
  const has = !["none", "sandbox", undefined, null].includes(app.credentials?.[environment]);
  return h("fieldset", {},
    h("legend", {}, `${environment[0].toUpperCase()}${environment.slice(1)}: `, badge(destination)),
    h("p", { class: "hint" }, destination === "sandbox" ? "Sent to the sandbox in this process until the app has Apple credentials." : destination === "apple" ? "Sent to Apple with the credential below." : "Not sent: the app has credentials for the other environment only."),
    h("form", {
      onsubmit: async (event) => {
        event.preventDefault();
        const chosen = file.files?.[0];
        if (!chosen) { say("Choose the .p8 or .p12 file first.", "error"); return; }
        const credential = {};
        if (kind.value === "p8") {
          credential.p8 = await chosen.text();
          credential.keyId = keyId.value.trim();
        } else {
          credential.p12 = await base64(chosen);
          if (password.value) credential.password = password.value;
        }
        const body = { credentials: { [environment]: credential } };
        if (kind.value === "p8" && teamId.value.trim()) body.teamId = teamId.value.trim();
        if (await attempt(() => api("PATCH", `/v1/apps/${encodeURIComponent(app.id)}`, body, { appScoped: false }), `Saved the ${environment} credential.`)) render();
      },
    },
      h("div", { class: "row" }, field("Kind", kind), field("File", file)),
      tokenFields, certificateFields,
      h("div", { class: "actions" },
        h("button", { type: "submit" }, has ? "Replace credential" : "Upload credential"),
        has ? h("button", {
          type: "button", class: "danger", onclick: async () => {
            if (await attempt(() => api("PATCH", `/v1/apps/${encodeURIComponent(app.id)}`, { credentials: { [environment]: null } }, { appScoped: false }), "Removed.")) render();
          },
        }, "Remove") : null)));
}

async function base64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function keysPanel(app) {
  const panel = h("section", { class: "panel", "aria-labelledby": "keys" });
  const draw = async (created) => {
    const answer = await attempt(() => api("GET", `/v1/apps/${encodeURIComponent(app.id)}/keys`, undefined, { appScoped: false }));
    const keys = answer?.keys ?? answer ?? [];
    panel.replaceChildren(h("h2", { id: "keys" }, "API keys"),
      h("p", { class: "hint" }, "An app key registers devices and sends for this app only. Its secret is shown once."),
      created ? secretNote("New key (shown once):", created) : null,
      keys.length ? h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Key"), h("th", { scope: "col" }, "Created"), h("th", { scope: "col" }, h("span", { class: "skip-label" }, "Actions")))),
        h("tbody", {}, keys.map((key) => h("tr", {}, h("td", { class: "mono" }, key.id), h("td", {}, when(key.createdAt)),
          h("td", {}, h("button", {
            type: "button", class: "danger", "aria-label": `Revoke ${key.id}`, onclick: async () => {
              if (!confirm(`Revoke ${key.id}? Clients using it stop working at once.`)) return;
              if (await attempt(() => api("DELETE", `/v1/apps/${encodeURIComponent(app.id)}/keys/${encodeURIComponent(key.id)}`, undefined, { appScoped: false }), `Revoked ${key.id}.`) !== undefined) draw();
            },
          }, "Revoke")))))) : empty("No keys."),
      h("div", { class: "actions" }, h("button", {
        type: "button", onclick: async () => {
          const key = await attempt(() => api("POST", `/v1/apps/${encodeURIComponent(app.id)}/keys`, {}, { appScoped: false }));
          if (key) draw(key.secret);
        },
      }, "Create a key")));
  };
  await draw();
  return panel;
}

// ---------- Devices ----------

async function devicesPage() {
  const missing = needsApp();
  if (missing) return missing;
  const token = input("token", { placeholder: "64 hex digits", spellcheck: "false" });
  const user = input("user");
  const tag = input("tag");
  const kind = h("select", { name: "kind" }, ["", "alert", "voip", "liveactivity", "push-to-start"].map((v) => h("option", { value: v }, v || "any")));
  const environment = h("select", { name: "environment" }, ["", "development", "production"].map((v) => h("option", { value: v }, v || "any")));
  const deviceState = h("select", { name: "state" }, ["", "active", "unregistered", "invalid"].map((v) => h("option", { value: v }, v || "any")));
  const results = h("div", { class: "table-wrap" });
  const detail = h("div");
  let cursor = null;
  const search = async (more) => {
    if (token.value.trim()) {
      const device = await attempt(() => api("GET", `/v1/devices/${encodeURIComponent(token.value.trim())}`));
      results.replaceChildren(device ? deviceTable([device], showDevice) : empty("No device with this token in this app."));
      if (device) showDevice(device);
      return;
    }
    const query = new URLSearchParams();
    if (user.value.trim()) query.set("user", user.value.trim());
    if (tag.value.trim()) query.set("tag", tag.value.trim());
    if (kind.value) query.set("kind", kind.value);
    if (environment.value) query.set("environment", environment.value);
    if (deviceState.value) query.set("state", deviceState.value);
    query.set("limit", "50");
    if (more && cursor) query.set("cursor", cursor);
    const page = await attempt(() => api("GET", `/v1/devices?${query}`));
    if (!page) return;
    cursor = page.nextCursor ?? null;
    const table = page.devices.length ? deviceTable(page.devices, showDevice) : empty("No devices match. Devices appear when an app registers its token (PUT /v1/devices/{token}) or when a simulated iPhone starts.");
    const next = cursor ? h("div", { class: "actions" }, h("button", { type: "button", onclick: () => search(true) }, "Next page")) : null;
    results.replaceChildren(table, next);
  };
  const showDevice = async (device) => {
    const page = await attempt(() => api("GET", `/v1/devices/${encodeURIComponent(device.token)}/deliveries`));
    const deliveries = page?.deliveries ?? [];
    detail.replaceChildren(h("section", { class: "panel", "aria-labelledby": "device-detail" },
      h("h2", { id: "device-detail" }, "Device ", h("code", {}, `${device.token.slice(0, 12)}…`)),
      h("p", {}, badge(device.state), " ", device.kind, " · ", device.environment, device.userId ? ` · user ${device.userId}` : "", device.locale ? ` · ${device.locale}` : "", device.timeZone ? ` · ${device.timeZone}` : "", device.tags?.length ? ` · tags ${device.tags.join(", ")}` : ""),
      h("h3", {}, "Recent deliveries"),
      deliveries.length ? deliveryTable(deliveries, true) : empty("Nothing sent to this device yet.")));
  };
  const register = input("register", { placeholder: "64 hex digits", spellcheck: "false" });
  const registerEnvironment = h("select", { name: "registerEnvironment" }, h("option", { value: "development" }, "development"), h("option", { value: "production" }, "production"));
  const parts = [
    h("h1", {}, "Devices"),
    h("section", { class: "panel", "aria-labelledby": "find" }, h("h2", { id: "find" }, "Find devices"),
      h("form", { role: "search", onsubmit: (event) => { event.preventDefault(); search(false); } },
        h("div", { class: "row" }, field("Token", token), field("User", user), field("Tag", tag)),
        h("div", { class: "row" }, field("Kind", kind), field("Environment", environment), field("State", deviceState)),
        h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Search"))),
      results),
    detail,
    h("section", { class: "panel", "aria-labelledby": "register-title" }, h("h2", { id: "register-title" }, "Register a token by hand"),
      h("form", {
        onsubmit: async (event) => {
          event.preventDefault();
          if (await attempt(() => api("PUT", `/v1/devices/${encodeURIComponent(register.value.trim())}`, { environment: registerEnvironment.value }), "Registered.")) { register.value = ""; search(false); }
        },
      }, h("div", { class: "row" }, field("Token", register), field("Environment", registerEnvironment)),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Register")))),
  ];
  search(false);
  return parts;
}

function deviceTable(devices, onOpen) {
  return h("table", {},
    h("thead", {}, h("tr", {}, ["Token", "State", "Kind", "Environment", "User", "Tags", "Locale"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, devices.map((device) => h("tr", {},
      h("td", { class: "mono" }, h("button", { type: "button", class: "link", onclick: () => onOpen(device), "aria-label": `Open device ${device.token}` }, `${device.token.slice(0, 16)}…`)),
      h("td", {}, badge(device.state)), h("td", {}, device.kind), h("td", {}, device.environment), h("td", {}, device.userId ?? ""),
      h("td", {}, (device.tags ?? []).join(", ")), h("td", {}, device.locale ?? "")))));
}

function deliveryTable(deliveries, withNotification) {
  return h("table", {},
    h("thead", {}, h("tr", {}, [withNotification ? "Notification" : "Token", "State", "Status", "Reason", "apns-id", "Attempts", "Finished"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, deliveries.map((d) => h("tr", {},
      withNotification ? h("td", { class: "mono" }, h("a", { href: `#/notifications/${encodeURIComponent(d.notificationId)}` }, `${d.notificationId.slice(0, 8)}…`)) : h("td", { class: "mono" }, `${d.token.slice(0, 16)}…`),
      h("td", {}, badge(d.state)), h("td", {}, d.status ?? ""), h("td", {}, d.reason ?? ""), h("td", { class: "mono" }, d.apnsId ?? ""),
      h("td", {}, d.attempts ?? ""), h("td", {}, when(d.finishedAt))))));
}

// ---------- Compose ----------

const pushTypes = ["alert", "background", "voip", "liveactivity", "location", "complication", "controls", "widgets", "pushtotalk"];

/** Which form control shows a diagnostic at this payload path or header. */
const placeOfPath = {
  "aps.alert.title": "title", "aps.alert.subtitle": "subtitle", "aps.alert.body": "body", "aps.alert": "body",
  "aps.badge": "badge", "aps.sound": "sound", "aps.category": "category", "aps.thread-id": "threadId",
  "media.url": "mediaUrl", "media.type": "mediaType", "media": "mediaUrl",
};
const placeOfHeader = { "apns-priority": "priority", "apns-push-type": "pushType", "apns-collapse-id": "collapseId", "apns-expiration": "expiration" };

async function composePage() {
  const missing = needsApp();
  if (missing) return missing;
  const app = state.apps.find((a) => a.id === state.app);
  const controls = {};
  const control = (name, node) => { controls[name] = node; node.name = name; return node; };

  // Target.
  const targetKind = control("targetKind", h("select", {}, h("option", { value: "tokens" }, "Device tokens"), h("option", { value: "users" }, "Users"), h("option", { value: "tags" }, "Tags"), h("option", { value: "all" }, "Every device")));
  const targetValues = control("targetValues", h("textarea", { rows: 2, spellcheck: "false", placeholder: "one per line, or separated by commas" }));
  const tagMatch = control("tagMatch", h("select", {}, h("option", { value: "any" }, "any of the tags"), h("option", { value: "all" }, "all of the tags")));
  const valuesField = field("Who", targetValues);
  const matchField = field("Match", tagMatch);
  matchField.hidden = true;
  targetKind.addEventListener("change", () => {
    valuesField.hidden = targetKind.value === "all";
    matchField.hidden = targetKind.value !== "tags";
    changed();
  });

  // Headers.
  const pushType = control("pushType", h("select", {}, h("option", { value: "" }, "from the payload"), pushTypes.map((t) => h("option", { value: t }, t))));
  const priority = control("priority", h("select", {}, h("option", { value: "" }, "the push type's"), h("option", { value: "10" }, "10 (now)"), h("option", { value: "5" }, "5 (power-saving)"), h("option", { value: "1" }, "1 (lowest)")));
  const expiration = control("expiration", h("input", { type: "datetime-local" }));
  const collapseId = control("collapseId", input("collapseId", { maxlength: 64 }));

  // Content: a form or JSON.
  const title = control("title", input("title"));
  const subtitle = control("subtitle", input("subtitle"));
  const body = control("body", input("body"));
  const badgeInput = control("badge", h("input", { type: "number", min: 0 }));
  const sound = control("sound", input("sound", { placeholder: "default" }));
  const category = control("category", input("category", { placeholder: "QiShareCategoryIdentifier" }));
  const threadId = control("threadId", input("threadId"));
  const mediaUrl = control("mediaUrl", h("input", { type: "url", placeholder: "https://…/picture.jpg" }));
  const mediaType = control("mediaType", h("select", {}, ["image", "gif", "audio", "video"].map((t) => h("option", { value: t }, t))));
  const mutable = control("mutableContent", h("input", { type: "checkbox" }));
  const json = control("payloadText", h("textarea", { class: "json", spellcheck: "false", "aria-describedby": "json-hint" }));
  json.value = JSON.stringify({ aps: { alert: { title: "Hello", body: "From Herald" }, sound: "default" } }, null, 2);
  const formPane = h("div", {},
    h("div", { class: "row" }, field("Title", title), field("Subtitle", subtitle)),
    field("Body", body),
    h("div", { class: "row" }, field("Badge", badgeInput, "0 clears it."), field("Sound", sound), field("Category", category, "Selects the actions and the content extension."), field("Thread id", threadId)),
    h("div", { class: "row" }, field("Media URL", mediaUrl, "The service extension downloads it (media.url; mutable-content is set)."), field("Media type", mediaType)),
    h("div", { class: "field" }, h("label", {}, mutable, " mutable-content (the service extension runs)")));
  const jsonPane = h("div", { hidden: true }, field("Payload (APNs JSON)", json), h("p", { class: "hint", id: "json-hint" }, "Checked as you type, with the line and column of a syntax error."));
  let mode = "form";
  const tabForm = h("button", { type: "button", role: "tab", "aria-selected": "true", "aria-controls": "pane-form" }, "Form");
  const tabJSON = h("button", { type: "button", role: "tab", "aria-selected": "false", "aria-controls": "pane-json", tabindex: "-1" }, "JSON");
  formPane.id = "pane-form"; jsonPane.id = "pane-json";
  tabForm.id = "tab-form"; tabJSON.id = "tab-json";
  formPane.setAttribute("role", "tabpanel"); formPane.setAttribute("aria-labelledby", "tab-form");
  jsonPane.setAttribute("role", "tabpanel"); jsonPane.setAttribute("aria-labelledby", "tab-json");
  const setMode = async (next) => {
    if (next === "json" && mode === "form") {
      // The payload the form makes now, not the one of the last lint (the last keystrokes).
      clearTimeout(lintTimer);
      await runLint();
      if (lastLint?.payload) json.value = lastLint.payload;
      else say("The form's content could not be built; the JSON editor keeps its own text.", "error");
    } else if (next === "form" && mode === "json") {
      say("Back to the form: the JSON editor's text is kept, but the form's fields are what is sent now.");
    }
    mode = next;
    formPane.hidden = mode !== "form";
    jsonPane.hidden = mode !== "json";
    tabForm.setAttribute("aria-selected", String(mode === "form"));
    tabJSON.setAttribute("aria-selected", String(mode === "json"));
    // One tab stop for the tab list: the selected tab; the arrow keys move between them.
    tabForm.tabIndex = mode === "form" ? 0 : -1;
    tabJSON.tabIndex = mode === "json" ? 0 : -1;
    changed();
  };
  tabForm.addEventListener("click", () => setMode("form"));
  tabJSON.addEventListener("click", () => setMode("json"));
  const tabs = [tabForm, tabJSON];
  for (const tab of tabs) {
    tab.addEventListener("keydown", (event) => {
      const at = tabs.indexOf(tab);
      const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const target = tabs[(next + tabs.length) % tabs.length];
      target.focus();
      setMode(target === tabForm ? "form" : "json");
    });
  }

  // Locale variants.
  const variants = h("div");
  const addVariant = () => {
    const tag = input("variantTag", { placeholder: "zh-Hans", spellcheck: "false" });
    const vTitle = input("variantTitle");
    const vBody = input("variantBody");
    const box = h("div", { class: "variant" }, h("div", { class: "row" }, field("Language", tag), field("Title", vTitle), field("Body", vBody)),
      h("button", { type: "button", class: "link", onclick: () => { box.remove(); changed(); } }, "Remove this language"));
    box.read = () => ({ tag: tag.value.trim(), title: vTitle.value, body: vBody.value });
    for (const node of [tag, vTitle, vBody]) node.addEventListener("input", changed);
    variants.append(box);
    tag.focus();
  };

  // Schedule.
  const when_ = control("when", h("select", {}, h("option", { value: "now" }, "Send now"), h("option", { value: "at" }, "At a time"), h("option", { value: "after" }, "After a delay"), h("option", { value: "daily" }, "Daily, in each device's time zone")));
  const at = control("at", h("input", { type: "datetime-local" }));
  const after = control("after", h("input", { type: "number", min: 1, value: 60 }));
  const daily = control("daily", input("daily", { placeholder: "08:30", pattern: "[0-2][0-9]:[0-5][0-9]" }));
  const scheduleFields = { at: field("Time", at), after: field("Seconds from now", after), daily: field("Time of day (HH:MM)", daily) };
  for (const node of Object.values(scheduleFields)) node.hidden = true;
  when_.addEventListener("change", () => {
    for (const [key, node] of Object.entries(scheduleFields)) node.hidden = when_.value !== key;
    sendButton.textContent = when_.value === "now" ? "Send" : "Schedule";
  });

  // Lint, preview and commands.
  const lintList = h("ul", { class: "diagnostics", id: "lint" });
  const lintSummary = h("p", { class: "hint", id: "lint-summary", "aria-live": "polite" }, "Checking…");
  const preview = h("pre", { id: "preview", "aria-label": "The payload APNs gets" });
  const curlCommand = h("pre", { id: "curl" });
  const heraldCommand = h("pre", { id: "herald-send" });
  const sendButton = h("button", { class: "primary", type: "submit", id: "send" }, "Send");

  for (const node of Object.values(controls)) {
    node.addEventListener("input", changed);
    node.addEventListener("change", changed);
  }

  function splitList(text) {
    return text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
  }

  /** The send request the page describes (without `to` when only linting). */
  function content() {
    const request = {};
    if (mode === "json") {
      request.payloadText = json.value;
    } else {
      const message = { body: body.value };
      if (title.value) message.title = title.value;
      if (subtitle.value) message.subtitle = subtitle.value;
      if (badgeInput.value !== "") message.badge = Number(badgeInput.value);
      if (sound.value) message.sound = sound.value;
      if (category.value) message.category = category.value;
      if (threadId.value) message.threadId = threadId.value;
      if (mutable.checked || mediaUrl.value) message.mutableContent = true;
      if (mediaUrl.value) message.data = { media: { url: mediaUrl.value, type: mediaType.value } };
      request.message = message;
    }
    if (pushType.value) request.pushType = pushType.value;
    if (priority.value) request.priority = Number(priority.value);
    if (expiration.value) request.expiration = Math.floor(new Date(expiration.value).getTime() / 1000);
    if (collapseId.value) request.collapseId = collapseId.value;
    const locales = {};
    for (const box of variants.children) {
      const v = box.read();
      if (v.tag) locales[v.tag] = { message: { title: v.title || undefined, body: v.body } };
    }
    if (Object.keys(locales).length) request.locales = locales;
    return request;
  }

  function sendRequest() {
    // The JSON editor's text goes as written (payloadText): what lint checked is what is sent.
    const request = content();
    const values = splitList(targetValues.value);
    if (targetKind.value === "all") request.to = { all: true };
    else if (targetKind.value === "tags") request.to = { tags: values, match: tagMatch.value };
    else request.to = { [targetKind.value]: values };
    return request;
  }

  let lastLint = null;
  let lintTimer = null;
  let lintSequence = 0;
  function changed() {
    clearTimeout(lintTimer);
    lintTimer = setTimeout(runLint, 250);
    drawCommands();
  }

  async function runLint() {
    const sequence = ++lintSequence;
    let answer;
    try {
      answer = await api("POST", "/v1/lint", content());
    } catch (error) {
      if (sequence !== lintSequence) return;
      lastLint = null;
      showDiagnostics([{ severity: "error", message: error.message, code: error.code ?? "bad_request" }]);
      lintSummary.textContent = "The request itself is not valid.";
      return;
    }
    if (sequence !== lintSequence) return;
    lastLint = answer;
    showDiagnostics(answer.diagnostics);
    lintSummary.textContent = answer.errors ? `${answer.errors} error${answer.errors > 1 ? "s" : ""}: APNs would refuse this.` : answer.warnings ? `No errors; ${answer.warnings} warning${answer.warnings > 1 ? "s" : ""}.` : "No problems found.";
    preview.textContent = answer.payload ?? "";
    sendButton.disabled = answer.errors > 0;
    drawCommands();
  }

  function showDiagnostics(diagnostics) {
    for (const node of Object.values(controls)) {
      node.removeAttribute("aria-invalid");
      const problem = document.getElementById(`${node.id}-problem`);
      if (problem) { problem.textContent = ""; problem.className = "inline-error"; }
    }
    lintList.replaceChildren(...diagnostics.map((d) => {
      const where = d.line ? `line ${d.line}, column ${d.column}` : d.header ? `header ${d.header}` : d.path ? d.path : "payload";
      // A language variant's finding is listed, not put under the main fields.
      const place = d.variant ? null : d.header ? placeOfHeader[d.header] : mode === "json" ? "payloadText" : placeOfPath[d.path];
      const target = place ? controls[place] : null;
      if (target && d.severity !== "info") {
        if (d.severity === "error") target.setAttribute("aria-invalid", "true");
        const problem = document.getElementById(`${target.id}-problem`);
        if (problem && !problem.textContent) {
          problem.className = d.severity === "error" ? "inline-error" : "inline-warning";
          problem.textContent = `${d.message}${d.fix ? ` — ${d.fix}` : ""}`;
        }
      }
      return h("li", { class: d.severity, "data-code": d.code },
        h("span", { class: "where" }, `${d.severity}: ${where}`), d.variant ? ` (${d.variant})` : "", " — ", d.message,
        d.fix ? h("div", { class: "hint" }, `Fix: ${d.fix}`) : null,
        h("div", { class: "hint mono" }, d.code));
    }));
  }

  /** `text` as one shell word. */
  function quoted(text) {
    return /^[A-Za-z0-9_./:@%+=,-]+$/.test(String(text)) ? String(text) : `'${String(text).replaceAll("'", "'\\''")}'`;
  }

  function drawCommands() {
    const request = sendRequest();
    const origin = location.origin;
    curlCommand.textContent = `curl ${origin}/v1/notifications \\\n  -H "Authorization: Bearer $HERALD_APP_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(request).replaceAll("'", "'\\''")}'`;
    const payload = lastLint?.payload ?? request.payloadText ?? "{}";
    const tokens = request.to.tokens?.length ? request.to.tokens : ["DEVICE_TOKEN"];
    const parts = ["herald send", "--key AuthKey_KEYID.p8 --team-id TEAMID", `--bundle-id ${quoted(app?.bundleId ?? "BUNDLE_ID")}`];
    if (lastLint?.pushType) parts.push(`--push-type ${quoted(lastLint.pushType)}`);
    if (lastLint?.priority) parts.push(`--priority ${quoted(lastLint.priority)}`);
    if (request.collapseId) parts.push(`--collapse-id ${quoted(request.collapseId)}`);
    if (request.expiration) parts.push(`--expiration ${quoted(request.expiration)}`);
    for (const token of tokens.slice(0, 5)) parts.push(`--token ${quoted(token)}`);
    parts.push("--payload - <<'JSON'");
    heraldCommand.textContent = `${parts.join(" \\\n  ")}\n${payload}\nJSON`;
  }

  async function submit(event) {
    event.preventDefault();
    // Only the Send button sends: Enter in a field does not.
    if (event.submitter !== sendButton) return;
    const request = sendRequest();
    if (lastLint === null) { say("Lint could not read the content: fix what it says first.", "error"); return; }
    if (targetKind.value !== "all" && !(request.to.tokens ?? request.to.users ?? request.to.tags).length) {
      controls.targetValues.setAttribute("aria-invalid", "true");
      document.getElementById(`${targetValues.id}-problem`).textContent = "Say whom to send to.";
      targetValues.focus();
      return;
    }
    if (targetKind.value !== "tokens") {
      const whom = targetKind.value === "all" ? "every device of this app" : `the devices of these ${targetKind.value}`;
      if (!confirm(`Send to ${whom}?`)) return;
    }
    sendButton.disabled = true;
    try {
      if (when_.value === "now") {
        const answer = await api("POST", "/v1/notifications", request);
        say(`Accepted for ${answer.audienceSize} device${answer.audienceSize === 1 ? "" : "s"}.${answer.skippedTokens?.length ? ` ${answer.skippedTokens.length} token(s) skipped: ${answer.skippedTokens.map((s) => s.why).join("; ")}` : ""}`);
        location.hash = `#/notifications/${encodeURIComponent(answer.id)}`;
      } else {
        if (when_.value === "at" && !at.value) { say("Choose the time to send at.", "error"); at.focus(); return; }
        // Whole seconds: the API reads ISO 8601 times without fractions on every toolchain.
        const trigger = when_.value === "at" ? { at: new Date(at.value).toISOString().replace(/\.\d{3}Z$/, "Z") } : when_.value === "after" ? { after: Number(after.value) } : { daily: daily.value };
        const schedule = await api("POST", "/v1/schedules", { trigger, notification: request });
        say(`Scheduled (${schedule.id}).`);
        location.hash = "#/schedules";
      }
    } catch (error) {
      say(error.message, "error");
      if (error.diagnostics?.length) showDiagnostics(error.diagnostics);
    } finally {
      sendButton.disabled = (lastLint?.errors ?? 0) > 0;
    }
  }

  const page = [
    h("h1", {}, "Compose"),
    h("form", { class: "grid", onsubmit: submit, novalidate: true },
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "to" }, h("h2", { id: "to" }, "To"),
          h("div", { class: "row" }, field("Target", targetKind), valuesField, matchField)),
        h("section", { class: "panel", "aria-labelledby": "what" }, h("h2", { id: "what" }, "Content"),
          h("div", { class: "tabs", role: "tablist", "aria-label": "Content as" }, tabForm, tabJSON),
          formPane, jsonPane,
          h("h3", {}, "Languages"),
          h("p", { class: "hint" }, "Each device gets the variant of its locale (zh-CN and zh_CN match zh-Hans), else the content above."),
          variants,
          h("button", { type: "button", onclick: addVariant }, "Add a language")),
        h("section", { class: "panel", "aria-labelledby": "how" }, h("h2", { id: "how" }, "How"),
          h("div", { class: "row" }, field("Push type", pushType), field("Priority", priority)),
          h("div", { class: "row" }, field("Expires", expiration, "Empty: APNs stores it as long as it allows."), field("Collapse id", collapseId))),
        h("section", { class: "panel", "aria-labelledby": "when-title" }, h("h2", { id: "when-title" }, "When"),
          h("div", { class: "row" }, field("When", when_), scheduleFields.at, scheduleFields.after, scheduleFields.daily),
          h("div", { class: "actions" }, sendButton))),
      h("div", {},
        h("section", { class: "panel", "aria-labelledby": "lint-title" }, h("h2", { id: "lint-title" }, "Lint"), lintSummary, lintList),
        h("section", { class: "panel", "aria-labelledby": "preview-title" }, h("h2", { id: "preview-title" }, "Payload"), preview),
        h("section", { class: "panel", "aria-labelledby": "commands" }, h("h2", { id: "commands" }, "The same from a shell"),
          h("h3", {}, "curl (this App Server)"), curlCommand, copyShown(curlCommand, "Copy curl"),
          h("h3", {}, "herald send (straight to APNs)"), heraldCommand, copyShown(heraldCommand, "Copy command")))),
  ];
  if (state.composeTo) {
    // Opened from a simulated iPhone: a rich notification for seed 000's app, its picture served by this server.
    targetValues.value = state.composeTo;
    state.composeTo = null;
    title.value = "Hello from Herald";
    subtitle.value = "Sent from the console";
    body.value = "The service extension rewrites the title and attaches this picture.";
    category.value = "QiShareCategoryIdentifier";
    mediaUrl.value = `${location.protocol}//127.0.0.1:${location.port || (location.protocol === "https:" ? 443 : 80)}/console/sample.png`;
    mutable.checked = true;
  } else {
    title.value = "Hello";
    body.value = "From Herald";
  }
  changed();
  return page;
}

// ---------- Notifications ----------

async function notificationsPage() {
  const missing = needsApp();
  if (missing) return missing;
  const status = h("select", { name: "status" }, ["", "sending", "finished", "cancelled"].map((v) => h("option", { value: v }, v || "any")));
  const results = h("div", { class: "table-wrap" });
  let cursor = null;
  const load = async (more) => {
    const query = new URLSearchParams({ limit: "50" });
    if (status.value) query.set("status", status.value);
    if (more && cursor) query.set("cursor", cursor);
    const page = await attempt(() => api("GET", `/v1/notifications?${query}`));
    if (!page) return;
    cursor = page.nextCursor ?? null;
    const list = page.notifications ?? [];
    results.replaceChildren(list.length ? h("table", {},
      h("thead", {}, h("tr", {}, ["Created", "Notification", "Status", "Audience"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, list.map((n) => h("tr", {}, h("td", {}, when(n.createdAt)),
        h("td", { class: "mono" }, h("a", { href: `#/notifications/${encodeURIComponent(n.id)}` }, n.id)),
        h("td", {}, badge(n.status)), h("td", {}, n.audienceSize))))) : empty("No notifications yet. Send one from Compose."),
    cursor ? h("div", { class: "actions" }, h("button", { type: "button", onclick: () => load(true) }, "Next page")) : null);
  };
  status.addEventListener("change", () => load(false));
  await load(false);
  return [h("h1", {}, "Notifications"), h("section", { class: "panel" }, h("div", { class: "row" }, field("Status", status)), results)];
}

async function notificationPage(id) {
  const missing = needsApp();
  if (missing) return missing;
  const counts = h("div", { class: "counts" });
  const bar = h("div", { class: "progress", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": 100, "aria-label": "Done" }, h("div"));
  const reasons = h("div");
  const chart = h("div");
  const deliveries = h("div", { class: "table-wrap" });
  const cancel = h("button", { type: "button", class: "danger", hidden: true }, "Cancel the rest");
  const heading = h("h1", {}, "Notification");
  const samples = []; // per second: {sent, failed}
  let previous = null;
  let previousAt = 0;
  let finishedLoaded = false;
  let deliveriesCursor = null;

  const loadDeliveries = async (more) => {
    const query = new URLSearchParams({ limit: "100" });
    if (more && deliveriesCursor) query.set("cursor", deliveriesCursor);
    const page = await attempt(() => api("GET", `/v1/notifications/${encodeURIComponent(id)}/deliveries?${query}`));
    if (!page) return;
    deliveriesCursor = page.nextCursor ?? null;
    const table = page.deliveries.length ? deliveryTable(page.deliveries, false) : empty("No deliveries yet.");
    deliveries.replaceChildren(table, deliveriesCursor ? h("div", { class: "actions" }, h("button", { type: "button", onclick: () => loadDeliveries(true) }, "Next page")) : null);
  };

  let latest = null;
  const refresh = async () => {
    let report;
    try { report = await api("GET", `/v1/notifications/${encodeURIComponent(id)}`); } catch (error) { say(error.message, "error"); stopTimers(); return; }
    show(report);
  };
  const show = (report) => {
    latest = report;
    heading.replaceChildren("Notification ", badge(report.status));
    const done = report.audienceSize - report.pending;
    const percent = report.audienceSize ? Math.round((100 * done) / report.audienceSize) : 100;
    bar.firstChild.style.width = `${percent}%`;
    bar.setAttribute("aria-valuenow", percent);
    counts.replaceChildren(...[["Audience", report.audienceSize], ["Sent", report.sent], ["Failed", report.failed], ["Pending", report.pending], ["Expired", report.expired], ["Cancelled", report.cancelled ?? 0]]
      .map(([label, n]) => h("div", { class: "count" }, h("div", { class: "n", "data-count": label.toLowerCase() }, n), h("div", { class: "hint" }, label))));
    const failures = Object.entries(report.failedByReason ?? {});
    const retrying = Object.entries(report.retryingByReason ?? {});
    reasons.replaceChildren(failures.length ? h("div", {}, h("h3", {}, "Failed, by reason"), h("ul", {}, failures.map(([r, n]) => h("li", {}, `${r}: ${n}`)))) : null,
      retrying.length ? h("div", {}, h("h3", {}, "Waiting to retry, by reason"), h("ul", {}, retrying.map(([r, n]) => h("li", {}, `${r}: ${n}`)))) : null);
    const now = performance.now();
    if (previous) {
      const seconds = Math.max(0.001, (now - previousAt) / 1000);
      samples.push({ sent: Math.round(Math.max(0, report.sent - previous.sent) / seconds), failed: Math.round(Math.max(0, report.failed - previous.failed) / seconds) });
    }
    previous = report;
    previousAt = now;
    if (samples.length > 60) samples.shift();
    chart.replaceChildren(rateChart(samples));
    cancel.hidden = report.status !== "sending";
    if (report.pending === 0 && !finishedLoaded) {
      finishedLoaded = true;
      loadDeliveries(false);
    }
  };
  cancel.addEventListener("click", async () => {
    if (!confirm("Cancel what has not been sent yet?")) return;
    if (await attempt(() => api("POST", `/v1/notifications/${encodeURIComponent(id)}/cancel`, {}), "Cancelled what was not sent yet.")) refresh();
  });
  await refresh();
  await loadDeliveries(false);
  if (latest && latest.pending > 0) follow();

  /** Live progress: the server's event stream (one report each time it changes), else polling. */
  function follow() {
    const generation = state.generation;
    if (!window.EventSource) { every(1000, refresh); return; }
    const query = state.session.admin ? `?app=${encodeURIComponent(state.app)}` : "";
    const stream = new EventSource(`/v1/notifications/${encodeURIComponent(id)}/events${query}`);
    state.streams.push(stream);
    stream.addEventListener("report", (event) => {
      if (generation !== state.generation) { stream.close(); return; }
      const report = JSON.parse(event.data);
      show(report);
      if (report.pending === 0) stream.close();
    });
    stream.addEventListener("error", () => {
      stream.close();
      // Ended early (a proxy, a restart): go on by polling while something is pending.
      if (generation === state.generation && latest?.pending > 0) every(1000, refresh);
    });
  }
  return [heading, h("p", { class: "mono muted" }, id),
    h("section", { class: "panel", "aria-labelledby": "progress-title" }, h("h2", { id: "progress-title" }, "Progress"), bar, counts, reasons, h("div", { class: "actions" }, cancel)),
    h("section", { class: "panel", "aria-labelledby": "rate-title" }, h("h2", { id: "rate-title" }, "Sends per second"), chart),
    h("section", { class: "panel", "aria-labelledby": "deliveries-title" }, h("h2", { id: "deliveries-title" }, "Per device"), deliveries)];
}

/** Bars of sends (and failures) per second, newest on the right. */
function rateChart(samples) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("viewBox", "0 0 600 120");
  svg.setAttribute("role", "img");
  const peak = Math.max(1, ...samples.map((s) => s.sent + s.failed));
  svg.setAttribute("aria-label", samples.length ? `Last ${samples.length} seconds; peak ${peak} a second` : "No samples yet");
  const width = 600 / 60;
  samples.forEach((sample, index) => {
    const x = 600 - (samples.length - index) * width;
    const sentHeight = (100 * sample.sent) / peak;
    const failedHeight = (100 * sample.failed) / peak;
    for (const [height, offset, cls] of [[sentHeight, 0, "bar"], [failedHeight, sentHeight, "fail"]]) {
      if (!height) continue;
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", x + 1);
      rect.setAttribute("y", 105 - offset - height);
      rect.setAttribute("width", width - 2);
      rect.setAttribute("height", height);
      rect.setAttribute("class", cls);
      svg.append(rect);
    }
  });
  const label = document.createElementNS(ns, "text");
  label.setAttribute("x", 4);
  label.setAttribute("y", 118);
  label.textContent = `peak ${peak}/s`;
  svg.append(label);
  return svg;
}

// ---------- Schedules ----------

async function schedulesPage() {
  const missing = needsApp();
  if (missing) return missing;
  const list = h("div", { class: "table-wrap" });
  const load = async () => {
    const answer = await attempt(() => api("GET", "/v1/schedules"));
    const schedules = answer?.schedules ?? answer ?? [];
    list.replaceChildren(schedules.length ? h("table", {},
      h("thead", {}, h("tr", {}, ["Schedule", "Trigger", "Next", "Fired", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, schedules.map((s) => h("tr", {}, h("td", { class: "mono" }, s.id), h("td", { class: "mono" }, JSON.stringify(s.trigger)),
        h("td", {}, nextFire(s)), h("td", {}, s.fireCount ?? 0),
        h("td", {}, h("button", {
          type: "button", class: "danger", "aria-label": `Cancel schedule ${s.id}`, onclick: async () => {
            if (await attempt(() => api("DELETE", `/v1/schedules/${encodeURIComponent(s.id)}`), "Cancelled the schedule.") !== undefined) load();
          },
        }, "Cancel")))))) : empty("No schedules. Compose a notification and choose a time under When."));
  };
  await load();
  return [h("h1", {}, "Schedules"), h("section", { class: "panel" }, list)];
}

function nextFire(schedule) {
  const next = schedule.nextFireAt;
  if (!next) return when(schedule.nextCheckAt);
  if (typeof next === "string") return when(next);
  const entries = Object.entries(next);
  if (!entries.length) return "—";
  return h("ul", {}, entries.slice(0, 6).map(([zone, time]) => h("li", {}, `${zone}: ${when(time)}`)), entries.length > 6 ? h("li", {}, `… ${entries.length - 6} more time zones`) : null);
}

// ---------- Sandbox ----------

async function sandboxPage() {
  const heading = h("h1", {}, "Sandbox");
  if (!state.session.admin) return [heading, empty("The sandbox serves every app: sign in with the admin key to see it.")];
  let devices;
  try {
    devices = await api("GET", "/v1/sandbox/devices", undefined, { appScoped: false });
  } catch (error) {
    return [heading, empty(error.status === 404 ? "This server runs no sandbox (it was started with --no-sandbox or --apns-url)." : error.message)];
  }
  const list = h("div", { class: "table-wrap" });
  const received = h("div");
  const counters = h("pre", { id: "sandbox-counters" });
  const call = (method, path, body) => api(method, path, body, { appScoped: false });
  const drawDevices = async () => {
    devices = await attempt(() => call("GET", "/v1/sandbox/devices")) ?? devices;
    list.replaceChildren(devices.length ? h("table", {},
      h("thead", {}, h("tr", {}, ["Token", "Topic", "Environment", "State", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, devices.map((device) => {
        const token = device.token;
        const short = `${token.slice(0, 16)}…`;
        const registered = !device.unregisteredAt;
        return h("tr", {},
          h("td", { class: "mono" }, h("button", { type: "button", class: "link", "aria-label": `What ${token} received`, onclick: () => showReceived(token) }, short)),
          h("td", { class: "mono" }, device.topic), h("td", {}, device.environment),
          h("td", {}, badge(registered ? (device.online ? "online" : "offline") : "unregistered")),
          h("td", {}, h("div", { class: "actions" },
            registered ? h("button", {
              type: "button", "aria-label": `${device.online ? "Take offline" : "Bring online"} ${short}`,
              onclick: async () => { await attempt(() => call("POST", `/v1/sandbox/devices/${token}/${device.online ? "offline" : "online"}`)); drawDevices(); },
            }, device.online ? "Take offline" : "Bring online") : null,
            registered ? h("button", {
              type: "button", class: "danger", "aria-label": `Unregister ${short}`,
              onclick: async () => {
                if (!confirm("Unregister this device? APNs answers 410 Unregistered for it from then on, and the App Server marks the token unregistered.")) return;
                await attempt(() => call("DELETE", `/v1/sandbox/devices/${token}`), "Unregistered: the next push to it gets 410.");
                drawDevices();
              },
            }, "Unregister (410)") : null)));
      }))) : empty("The sandbox has no devices yet: they appear when a notification is sent to a token, or when a simulated iPhone starts."));
  };
  const showReceived = async (token) => {
    const notifications = await attempt(() => call("GET", `/v1/sandbox/devices/${token}/notifications`)) ?? [];
    received.replaceChildren(h("section", { class: "panel", id: "sandbox-received", "aria-labelledby": "received-title" },
      h("h2", { id: "received-title" }, "Received by ", h("code", {}, `${token.slice(0, 16)}…`)),
      notifications.length ? h("table", {}, h("thead", {}, h("tr", {}, ["Received", "apns-id", "Type", "Priority", "Payload"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, notifications.slice().reverse().map((n) => h("tr", {}, h("td", {}, when(n.receivedAt)), h("td", { class: "mono" }, n.id),
          h("td", {}, n.pushType ?? ""), h("td", {}, n.priority), h("td", {}, h("code", {}, n.payload)))))) : empty("Nothing received yet.")));
  };
  const drawCounters = async () => {
    const answer = await attempt(() => call("GET", "/v1/sandbox/counters"));
    if (answer) counters.textContent = JSON.stringify(answer, null, 2);
  };

  // Faults.
  const faults = await attempt(() => call("GET", "/v1/sandbox/faults")) ?? {};
  const rate = (code) => h("input", { type: "number", min: 0, max: 100, step: 1, value: Math.round(100 * (faults.rates?.[code] ?? 0)) });
  const r429 = rate("429");
  const r500 = rate("500");
  const r503 = rate("503");
  const latency = h("input", { type: "number", min: 0, step: 10, value: faults.latencyMilliseconds ?? 0 });
  const goAway = h("input", { type: "number", min: 1, value: faults.goAwayAfterStreams ?? "" });
  const faultForm = h("form", {
    onsubmit: async (event) => {
      event.preventDefault();
      const rates = {};
      for (const [code, node] of [["429", r429], ["500", r500], ["503", r503]]) if (Number(node.value) > 0) rates[code] = Number(node.value) / 100;
      const plan = { rates, latencyMilliseconds: Number(latency.value || 0) };
      if (goAway.value) plan.goAwayAfterStreams = Number(goAway.value);
      await attempt(() => call("PUT", "/v1/sandbox/faults", plan), "Faults set: the sandbox answers with them from now on.");
    },
  },
    h("div", { class: "row" }, field("429 Too Many Requests (%)", r429), field("500 Internal Server Error (%)", r500), field("503 Service Unavailable (%)", r503)),
    h("div", { class: "row" }, field("Latency (ms)", latency), field("GOAWAY after streams", goAway, "Empty: never.")),
    h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Inject faults"),
      h("button", {
        type: "button", onclick: async () => {
          if (await attempt(() => call("DELETE", "/v1/sandbox/faults"), "No faults: the sandbox answers normally.")) {
            for (const node of [r429, r500, r503, latency]) node.value = 0;
            goAway.value = "";
          }
        },
      }, "Clear faults")));

  await drawDevices();
  await drawCounters();
  every(2000, drawCounters);
  return [heading,
    h("p", { class: "muted" }, "APNs in this process, for apps without Apple credentials."),
    h("section", { class: "panel", "aria-labelledby": "sandbox-devices" }, h("h2", { id: "sandbox-devices" }, "Devices"), list),
    received,
    h("section", { class: "panel", "aria-labelledby": "faults-title" }, h("h2", { id: "faults-title" }, "Faults"),
      h("p", { class: "hint" }, "What the App Server does when APNs misbehaves: retries with back-off, a circuit breaker, reports by reason."), faultForm),
    h("section", { class: "panel", "aria-labelledby": "counters-title" }, h("h2", { id: "counters-title" }, "Answers so far"), counters)];
}

// ---------- Simulated iPhone ----------

async function phonePage() {
  const missing = needsApp();
  if (missing) return missing;
  const heading = h("h1", {}, "Simulated iPhone");
  let list;
  try {
    list = await api("GET", "/v1/phones");
  } catch (error) {
    return [heading, empty(error.status === 404 ? error.message : error.message)];
  }
  const shelf = h("div");
  const environment = h("select", { name: "phoneEnvironment" }, h("option", { value: "development" }, "development"), h("option", { value: "production" }, "production"));
  const add = h("button", {
    class: "primary", type: "button", id: "add-phone", onclick: async () => {
      add.disabled = true;
      const phone = await attempt(() => api("POST", "/v1/phones", { environment: environment.value }), "A simulated iPhone is running the app; its token is registered with the sandbox and this server.");
      add.disabled = false;
      if (phone) { list.phones.push(phone); draw(); }
    },
  }, "Add a simulated iPhone");
  const draw = () => {
    shelf.replaceChildren(...(list.phones.length ? list.phones.map(phoneCard) : [empty("No simulated iPhone yet. Add one: it runs seed 000's QiShare app with its service and content extensions, and shows what arrives.")]));
  };
  const refresh = async () => {
    const fresh = await api("GET", "/v1/phones").catch(() => null);
    if (!fresh) return;
    // Redrawn only when something changed, so typing in a text field is not interrupted.
    if (JSON.stringify(fresh) !== JSON.stringify(list)) { list = fresh; draw(); }
  };
  draw();
  every(1000, refresh);
  return [heading,
    h("p", { class: "muted" }, "An iPhone in this process: iOS's notification pipeline (HeraldDevice) with the app's extensions, registered with the sandbox."),
    h("section", { class: "panel" }, h("div", { class: "row" }, field("Environment", environment)), h("div", { class: "actions" }, add)),
    shelf];

  function phoneCard(phone) {
    const screen = h("div", { class: phone.locked ? "phone-screen locked" : "phone-screen", "aria-label": `${phone.locked ? "Lock screen" : "Notification Center"} of ${phone.id}` },
      h("div", { class: "phone-status", "aria-hidden": "true" }, phone.locked ? "🔒 Locked" : "🔓 Unlocked"),
      h("div", { class: "phone-clock", "aria-hidden": "true" }, new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })),
      phone.notifications.length ? phone.notifications.map((n) => notificationCard(phone, n)) : h("p", { class: "phone-empty" }, "No notifications"));
    return h("section", { class: "panel phone", "aria-labelledby": `${phone.id}-title`, "data-phone": phone.id },
      h("h2", { id: `${phone.id}-title` }, `${phone.appName} on ${phone.id}`),
      h("p", { class: "hint" }, "Token ", h("code", { "data-token": "" }, phone.token), ` · ${phone.environment} · badge ${phone.badge}`),
      h("div", { class: "actions" },
        h("button", { type: "button", onclick: () => { state.composeTo = phone.token; location.hash = "#/compose"; } }, "Compose to this iPhone"),
        h("button", {
          type: "button", "data-lock": "", onclick: async () => {
            const updated = await attempt(() => api("PATCH", `/v1/phones/${encodeURIComponent(phone.id)}`, { locked: !phone.locked }), phone.locked ? "Unlocked." : "Locked: what arrives now shows on the lock screen.");
            if (updated) { list.phones = list.phones.map((p) => (p.id === updated.id ? updated : p)); draw(); }
          },
        }, phone.locked ? "Unlock" : "Lock"),
        h("button", {
          type: "button", class: "danger", onclick: async () => {
            if (await attempt(() => api("DELETE", `/v1/phones/${encodeURIComponent(phone.id)}`)) !== undefined) { list.phones = list.phones.filter((p) => p.id !== phone.id); draw(); }
          },
        }, "Remove")),
      h("div", { class: "phone-grid" }, screen,
        h("div", { class: "transcript" }, h("h3", {}, "What the phone did"),
          h("ol", { class: "mono", "aria-live": "polite" }, phone.transcript.slice(-60).map((line) => h("li", {}, line))))));
  }

  function notificationCard(phone, n) {
    const tap = async (action, text) => {
      const updated = await attempt(() => api("POST", `/v1/phones/${encodeURIComponent(phone.id)}/tap`, { notification: n.identifier, action, text }), action ? `Tapped ${action}.` : "Opened the notification.");
      if (updated) { list.phones = list.phones.map((p) => (p.id === updated.id ? updated : p)); draw(); }
    };
    const buttons = n.actions.map((action) => {
      if (action.textButton) {
        const input = h("input", { type: "text", name: `text-${action.id}`, placeholder: action.textPlaceholder ?? "", "aria-label": `${action.title}: text` });
        return h("form", { class: "phone-text", onsubmit: (event) => { event.preventDefault(); tap(action.id, input.value); } },
          input, h("button", { type: "submit", class: action.destructive ? "danger" : "", "data-action": action.id }, `${action.title}: ${action.textButton}`));
      }
      return h("button", { type: "button", class: action.destructive ? "danger" : "", "data-action": action.id, onclick: () => tap(action.id) }, action.title);
    });
    return h("article", { class: "phone-notification", "data-notification": n.identifier },
      h("img", { class: "banner", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(n.svg)}`, alt: `${n.title}${n.subtitle ? ` — ${n.subtitle}` : ""}: ${n.body}${n.attachments ? " (with a picture)" : ""}` }),
      h("div", { class: "actions" }, h("button", { type: "button", onclick: () => tap(null) }, "Open"), buttons));
  }
}

// ---------- start ----------

window.addEventListener("hashchange", render);
document.getElementById("sign-out").addEventListener("click", signOut);
document.getElementById("app-picker").addEventListener("change", (event) => { chooseApp(event.target.value); render(); });

(async () => {
  try {
    state.session = await api("GET", "/v1/session", undefined, { appScoped: false });
  } catch (error) {
    if (error.status === 401) { showSignIn(); return; }
    document.getElementById("main").replaceChildren(h("h1", {}, "The App Server did not answer"), empty(error.message),
      h("div", { class: "actions" }, h("button", { type: "button", onclick: () => location.reload() }, "Try again")));
    return;
  }
  await start();
})();
