// The libxml2 API as ManifestLint sees it. See docs/protocol-sources.md, "libxml2 from Swift".
#ifndef SIGNINBRIDGE_CLIBXML2_SHIM_H
#define SIGNINBRIDGE_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; encoding.h would then pull in the system ICU headers, which clash with the ICU
// copy inside Foundation. We never use encoding handlers directly, so hide ICU.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#include <libxml/relaxng.h>
#include <libxml/globals.h>
#include <stdarg.h>
#include <stdio.h>

/// `xmlFree` is a mutable global function pointer, which Swift 6 refuses to touch.
static inline void cxml_free(void *pointer) { xmlFree(pointer); }

/// The runtime libxml2 version string (`xmlParserVersion` is a macro in threaded builds).
static inline const char *cxml_parser_version(void) { return xmlParserVersion; }

/// The error handlers of the calling thread, saved so that a parse can put back what it found.
typedef struct {
    xmlStructuredErrorFunc structured;
    void *structuredContext;
    xmlGenericErrorFunc generic;
    void *genericContext;
} cxml_error_handlers;

static inline cxml_error_handlers cxml_current_error_handlers(void) {
    cxml_error_handlers handlers = {
        xmlStructuredError, xmlStructuredErrorContext, xmlGenericError, xmlGenericErrorContext
    };
    return handlers;
}

static inline void cxml_restore_error_handlers(cxml_error_handlers handlers) {
    xmlSetStructuredErrorFunc(handlers.structuredContext, handlers.structured);
    xmlSetGenericErrorFunc(handlers.genericContext, handlers.generic);
}

/// True when the calling thread's structured error handler is `handler`: our external-entity loader uses it to
/// tell our own parses (handler installed) from other libxml2 users in the same process.
static inline int cxml_thread_structured_handler_is(xmlStructuredErrorFunc handler) {
    return xmlStructuredError == handler;
}

/// libxml2's generic error handler is printf-like (variadic), which Swift cannot implement: this trampoline
/// formats the message and hands the text to a plain callback.
typedef void (*cxml_text_sink)(void *context, const char *text);
typedef struct {
    cxml_text_sink sink;
    void *context;
} cxml_generic_forwarder;

static inline void cxml_forward_generic_error(void *context, const char *format, ...) {
    cxml_generic_forwarder *forwarder = (cxml_generic_forwarder *)context;
    if (forwarder == NULL || forwarder->sink == NULL || format == NULL) return;
    char buffer[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    forwarder->sink(forwarder->context, buffer);
}

/// Routes the calling thread's generic (printf-style) libxml2 messages to `forwarder` instead of stderr.
static inline void cxml_install_generic_forwarder(cxml_generic_forwarder *forwarder) {
    xmlSetGenericErrorFunc(forwarder, cxml_forward_generic_error);
}

#endif
