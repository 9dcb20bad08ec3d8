module github.com/seed-275a9bd5/robotstxt

go 1.22
