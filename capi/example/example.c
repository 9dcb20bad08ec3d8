// example.c: a crawler in C deciding URLs through librobotstxt. .ci/run
// builds and runs it:
//
//     cc -I capi capi/example/example.c -L python/robotstxt -lrobotstxt -o example
//     LD_LIBRARY_PATH=python/robotstxt ./example
#include <stdio.h>
#include <string.h>

#include "robotstxt.h"

int main(void) {
	const char *body = "User-agent: *\nDisallow: /private/\nAllow: /private/ok\nCrawl-delay: 2\n";
	const char *tokens[] = {"FooBot"};
	const size_t lens[] = {strlen(tokens[0])};
	robotstxt_handle h;
	int rc = robotstxt_compile(body, strlen(body), tokens, lens, 1, ROBOTSTXT_RFC9309, 0, 0, &h);
	if (rc != ROBOTSTXT_OK) {
		fprintf(stderr, "compile: %s\n", robotstxt_strerror(rc));
		return 1;
	}
	const char *urls[] = {"https://example.com/private/x", "https://example.com/private/ok", "https://example.com/"};
	for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		robotstxt_decision d;
		if ((rc = robotstxt_decide(h, urls[i], strlen(urls[i]), &d)) != ROBOTSTXT_OK) {
			fprintf(stderr, "decide: %s\n", robotstxt_strerror(rc));
			return 1;
		}
		printf("%s %s (line %d)\n", urls[i], d.allowed ? "allowed" : "disallowed", (int)d.line);
	}
	int64_t ns;
	int32_t present;
	if (robotstxt_crawl_delay(h, &ns, &present) == ROBOTSTXT_OK && present) {
		printf("crawl-delay %.1fs\n", (double)ns / 1e9);
	}
	robotstxt_free(h);
	rc = robotstxt_free(h); // a second free is an error, not a crash
	printf("second free: %s\n", robotstxt_strerror(rc));
	return 0;
}
