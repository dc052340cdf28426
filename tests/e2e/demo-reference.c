// SPDX-License-Identifier: MIT
// The picture garnet-gem-demo draws for one frame, computed on the CPU from the same scene
// (clients/gem-demo-scene.h): the reference a test compares the screen with.
// usage: demo-reference FRAME WIDTHxHEIGHT OUT   (OUT: WIDTH x HEIGHT packed XRGB8888, as
//        garnet.ko's debugfs garnet_scanout reads)
#include <stdio.h>
#include <stdlib.h>

#include "gem-demo-scene.h"

int main(int argc, char **argv)
{
	int32_t width, height;
	unsigned long frame;
	char *end;
	FILE *out;

	if (argc != 4 || sscanf(argv[2], "%dx%d", &width, &height) != 2 || width < 128 ||
	    height < 128 || width > 8192 || height > 8192) {
		fprintf(stderr, "usage: demo-reference FRAME WIDTHxHEIGHT OUT (at least 128x128)\n");
		return 2;
	}
	frame = strtoul(argv[1], &end, 10);
	if (*end || frame > UINT32_MAX) {
		fprintf(stderr, "demo-reference: %s is not a frame number\n", argv[1]);
		return 2;
	}
	out = fopen(argv[3], "wb");
	if (!out) {
		perror(argv[3]);
		return 1;
	}
	for (int32_t y = 0; y < height; y++) {
		for (int32_t x = 0; x < width; x++) {
			uint32_t pixel = gem_demo_expected_pixel((uint32_t)frame, width, height, x, y);

			fwrite(&pixel, sizeof(pixel), 1, out);
		}
	}
	if (fclose(out) != 0) {
		perror(argv[3]);
		return 1;
	}
	return 0;
}
