// memorybot moderator page: what every panel shares. No framework, no build step.
//
// Loaded first; exposes one frozen namespace, window.memorybot, that app.js (the token, the
// guild chooser, search and MEMORY.md) and each further panel script (review.js, ...) use.
//
// Safety rule for every script of this page: API data only ever reaches the page as text
// (textContent, an input's value, or append() of a string, which makes a text node). Nothing
// parses HTML, and the only links ever made are Discord message links built from validated ids.
"use strict";

window.memorybot = (() => {
  const TOKEN_KEY = "memorybot.apiToken"; // sessionStorage only: gone when the tab closes
  const SNOWFLAKE = /^[0-9]{15,21}$/;
  const TOKEN_CHARS = /^[\x21-\x7e]+$/; // what an HTTP header value can carry as a token
  const statusLine = document.getElementById("status");

  // --- events between the page's parts ---------------------------------------------------
  // "guild" (guildId, label): the chosen guild changed ("" when none is chosen);
  // "signedOut": the token was cleared or refused.
  const listeners = new Map();

  function on(name, listener) {
    if (!listeners.has(name)) listeners.set(name, []);
    listeners.get(name).push(listener);
  }

  function emit(name, ...args) {
    for (const listener of listeners.get(name) || []) {
      try {
        listener(...args);
      } catch (err) {
        console.error(err); // one broken panel must not stop the others
      }
    }
  }

  // --- the token -------------------------------------------------------------------------

  let token = readToken();

  function readToken() {
    try {
      return sessionStorage.getItem(TOKEN_KEY) || "";
    } catch {
      return "";
    }
  }

  function saveToken(value) {
    try {
      if (value) sessionStorage.setItem(TOKEN_KEY, value);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // storage disabled: the token lives in this page's memory only
    }
  }

  const session = Object.freeze({
    get token() {
      return token;
    },
    /** Whether ``value`` can be sent as a bearer token at all. */
    acceptable(value) {
      return TOKEN_CHARS.test(value);
    },
    use(value) {
      token = value;
      saveToken(value);
    },
    forget() {
      token = "";
      saveToken("");
      emit("signedOut");
    },
  });

  // --- small helpers ---------------------------------------------------------------------

  function text(value) {
    if (value === null || value === undefined) return "";
    return typeof value === "string" ? value : String(value);
  }

  function number(value, digits) {
    return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "—";
  }

  /** "2023-05-07 21:30" of an ISO time (as the API writes them, UTC); "" for anything else. */
  function shortTime(value) {
    const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(text(value));
    return match ? `${match[1]} ${match[2]}` : "";
  }

  function node(tag, content, className) {
    const element = document.createElement(tag);
    if (content !== undefined) element.textContent = content;
    if (className) element.className = className;
    return element;
  }

  function option(value, label) {
    const element = node("option", label);
    element.value = value;
    return element;
  }

  function button(label, onClick, className) {
    const element = node("button", label, className);
    element.type = "button";
    element.addEventListener("click", onClick);
    return element;
  }

  let errorShownAt = -1;

  /**
   * The status line. ``startedAt`` (``performance.now()`` when the work began) keeps a
   * success from covering an error shown while that work ran: MEMORY.md loading in the
   * background does not hide that reviewing facts needs the admin token.
   */
  function setStatus(message, kind, startedAt) {
    if (kind === "ok" && startedAt !== undefined && startedAt < errorShownAt) return;
    if (kind === "error") errorShownAt = performance.now();
    statusLine.textContent = message;
    statusLine.className = kind ? `status ${kind}` : "status";
  }

  /** A panel's note (``kind``: "error" or none) in ``element``, shown. */
  function showNote(element, message, kind) {
    element.textContent = message;
    element.className = kind ? `note ${kind}` : "note";
    element.hidden = false;
  }

  /** A link to the source message, only when every id is a plain Discord id. */
  function sourceCell(guildId, channelId, messageId) {
    const cell = node("td", undefined, "nowrap");
    if ([guildId, channelId, messageId].every((id) => SNOWFLAKE.test(id))) {
      const link = node("a", "open in Discord");
      link.href = `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
      link.rel = "noopener noreferrer";
      link.target = "_blank";
      link.referrerPolicy = "no-referrer";
      cell.append(link);
    } else {
      cell.textContent = messageId || "—";
    }
    return cell;
  }

  // --- the API ---------------------------------------------------------------------------

  class ApiFailure extends Error {
    constructor(status, code, message, retryAfter) {
      super(message);
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter;
    }
  }

  /** ``method`` ``path`` (relative: works behind a path prefix too) with the token; ``body``,
   * when given, is sent as JSON. The answer's JSON, or an ApiFailure. */
  async function api(path, params = {}, method = "GET", body = undefined) {
    const url = new URL(path, document.baseURI);
    for (const [key, value] of Object.entries(params)) {
      if (value !== "" && value !== null && value !== undefined) url.searchParams.set(key, value);
    }
    const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
        credentials: "omit",
        referrerPolicy: "no-referrer",
      });
    } catch (err) {
      throw new ApiFailure(0, "network", `could not reach the API (${text(err && err.message)})`);
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      answer = null;
    }
    if (!response.ok) {
      const error = answer && typeof answer === "object" ? answer.error : null;
      const code = error && typeof error.code === "string" ? error.code : "http_error";
      const message =
        error && typeof error.message === "string" ? error.message : response.statusText;
      throw new ApiFailure(response.status, code, message || "request failed",
        response.headers.get("Retry-After"));
    }
    if (!answer || typeof answer !== "object") {
      throw new ApiFailure(response.status, "bad_response", "the API did not answer with JSON");
    }
    return answer;
  }

  /** Show a failed request in the status line; a 401 also forgets the token. */
  function fail(err, what) {
    if (!(err instanceof ApiFailure)) {
      setStatus(`${what} failed: ${text(err && err.message ? err.message : err)}`, "error");
      return;
    }
    if (err.status === 0) {
      setStatus(`${what} failed: ${err.message}`, "error");
      return;
    }
    let message = `${what} failed (HTTP ${err.status}, ${err.code}): ${err.message}.`;
    if (err.status === 401) {
      session.forget();
      message += " This token was not accepted: enter the right API token above.";
    } else if (err.status === 403) {
      message += " Ask for a token that may read this guild.";
    } else if (err.status === 429) {
      const wait = err.retryAfter ? ` ${err.retryAfter} s` : " a moment";
      message += ` Wait${wait} and try again.`;
    }
    setStatus(message, "error");
  }

  // --- narrow screens ----------------------------------------------------------------------
  // Under 640 px a table's rows are shown as cards (style.css), one cell a line, each led by
  // its column's name: every body cell gets data-label from its table's header, whenever
  // rows are added, so the panels that fill the tables need not know.
  function labelCells(table) {
    const names = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent.trim());
    for (const row of table.tBodies[0] ? table.tBodies[0].rows : []) {
      Array.from(row.cells).forEach((cell, index) => {
        if (names[index] && !cell.dataset.label) cell.dataset.label = names[index];
      });
    }
  }

  for (const table of document.querySelectorAll("table.results")) {
    labelCells(table);
    new MutationObserver(() => labelCells(table)).observe(table, { childList: true, subtree: true });
  }

  return Object.freeze({
    SNOWFLAKE,
    on,
    emit,
    session,
    text,
    number,
    shortTime,
    node,
    option,
    button,
    setStatus,
    showNote,
    sourceCell,
    ApiFailure,
    api,
    fail,
  });
})();
