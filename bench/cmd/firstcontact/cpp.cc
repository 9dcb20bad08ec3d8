//go:build nzrsky

// The C++ side: bodies and URLs are copied into C++ strings once, and each
// decision is a fresh RobotsMatcher, as a crawler meeting a site makes one.
#define ROBOTS_IMPLEMENTATION
#include "robots.h"
#include <string>
#include <vector>

namespace {
std::vector<std::string> cpp_bodies, cpp_urls;
std::string cpp_agent;
}  // namespace

extern "C" void cpp_add(const char* body, long n, const char* url, long m) {
  cpp_bodies.emplace_back(body, n);
  cpp_urls.emplace_back(url, m);
}

extern "C" void cpp_agent_set(const char* agent, long n) { cpp_agent.assign(agent, n); }

extern "C" void cpp_clear() {
  cpp_bodies.clear();
  cpp_urls.clear();
}

extern "C" long cpp_pass() {
  long allowed = 0;
  for (size_t i = 0; i < cpp_bodies.size(); i++) {
    googlebot::RobotsMatcher m;
    allowed += m.OneAgentAllowedByRobots(cpp_bodies[i], cpp_agent, cpp_urls[i]);
  }
  return allowed;
}
