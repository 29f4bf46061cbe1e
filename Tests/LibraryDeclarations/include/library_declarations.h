#pragma once
/* Nothing to call: library_declarations.c is a compile-time check. SwiftPM wants a header. */
