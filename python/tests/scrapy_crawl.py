"""Runs one Scrapy crawl of a site (test support for test_scrapy.py, run in a
subprocess because Twisted's reactor starts once per process):

    python3 scrapy_crawl.py START_URL PARSER SEMANTICS USER_AGENT

The spider follows every link of every page; Scrapy's RobotsTxtMiddleware
asks PARSER (a ROBOTSTXT_PARSER value) about each request. It prints the
crawler's robotstxt/* stats as JSON on its last line.
"""

import json
import sys

import scrapy
from scrapy.crawler import CrawlerProcess


class Follow(scrapy.Spider):
    name = "follow"

    def __init__(self, start: str, **kw):
        super().__init__(**kw)
        self.start_urls = [start]

    def parse(self, response):
        # dont_filter: Scrapy's duplicate filter canonicalises URLs (/%7Efoo
        # is /~foo to it) and would drop one of each such pair before
        # robots.txt is asked; the site has no cycles.
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse, dont_filter=True)


def main() -> None:
    start, parser, semantics, agent = sys.argv[1:5]
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "ROBOTSTXT_PARSER": parser,
        "ROBOTSTXT_SEMANTICS": semantics,
        "USER_AGENT": agent,
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 8,
        "RETRY_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    })
    crawler = process.create_crawler(Follow)
    process.crawl(crawler, start=start)
    process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if k.startswith("robotstxt/")}
    print(json.dumps(stats, default=str))


if __name__ == "__main__":
    main()
