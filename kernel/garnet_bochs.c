// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU's bochs-display (PCI 1234:1111): garnet binds to it, programs its DISPI registers and
 * uses its VRAM BAR as scanout memory. The device has no interrupt, no hardware cursor and no
 * DMA: garnet's display code copies pixels into VRAM with the CPU and keeps time with a timer.
 *
 * BAR 0 is VRAM. BAR 2 is MMIO: the EDID blob at 0x000, the DISPI registers as 16-bit words at
 * 0x500 + index * 2, QEMU's extension registers (size, framebuffer byte order) at 0x600.
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "garnet_kms.h"

#define BOCHS_VENDOR_ID		0x1234
#define BOCHS_DISPLAY_ID	0x1111

#define DISPI_MMIO_BASE		0x500
#define DISPI_INDEX_ID		0x0
#define DISPI_INDEX_XRES	0x1
#define DISPI_INDEX_YRES	0x2
#define DISPI_INDEX_BPP		0x3
#define DISPI_INDEX_ENABLE	0x4
#define DISPI_INDEX_BANK	0x5
#define DISPI_INDEX_VIRT_WIDTH	0x6
#define DISPI_INDEX_VIRT_HEIGHT	0x7
#define DISPI_INDEX_X_OFFSET	0x8
#define DISPI_INDEX_Y_OFFSET	0x9
#define DISPI_INDEX_VIDEO_MEMORY_64K 0xa

#define DISPI_ID_FIRST		0xb0c0
#define DISPI_ID_LAST		0xb0c5
#define DISPI_ENABLED		0x01
#define DISPI_LFB_ENABLED	0x40

#define QEXT_MMIO_BASE		0x600
#define QEXT_SIZE		0x0
#define QEXT_BYTEORDER		0x4
#define QEXT_LITTLE_ENDIAN	0x1e1e1e1e

struct garnet_bochs {
	struct pci_dev *pdev;
	void __iomem *mmio;
	void __iomem *vram;
	size_t vram_size;
	u16 dispi_id;
};

/*
 * One device at most: garnet drives a single display. Set by probe, cleared by remove.
 * bochs_lock guards it and the display using it (bochs_user), so that remove, which may come
 * at any time (PCI hot-unplug, root writing the device's sysfs remove), first takes the
 * registers and VRAM away from the display and only then lets devres unmap them.
 */
static DEFINE_MUTEX(bochs_lock);
static struct garnet_bochs *bound_bochs;
static struct garnet_kms *bochs_user;

static u16 dispi_read(struct garnet_bochs *bochs, unsigned int index)
{
	return readw(bochs->mmio + DISPI_MMIO_BASE + index * 2);
}

static void dispi_write(struct garnet_bochs *bochs, unsigned int index, u16 value)
{
	writew(value, bochs->mmio + DISPI_MMIO_BASE + index * 2);
}

void garnet_bochs_get_vram(struct garnet_bochs *bochs, struct iosys_map *map, size_t *size)
{
	iosys_map_set_vaddr_iomem(map, bochs->vram);
	*size = bochs->vram_size;
}

/* 32 bpp with a packed pitch at VRAM offset 0; the display code composes into that layout. */
void garnet_bochs_set_mode(struct garnet_bochs *bochs, unsigned int width, unsigned int height)
{
	dispi_write(bochs, DISPI_INDEX_ENABLE, 0);
	dispi_write(bochs, DISPI_INDEX_BPP, 32);
	dispi_write(bochs, DISPI_INDEX_XRES, width);
	dispi_write(bochs, DISPI_INDEX_YRES, height);
	dispi_write(bochs, DISPI_INDEX_BANK, 0);
	dispi_write(bochs, DISPI_INDEX_VIRT_WIDTH, width);
	dispi_write(bochs, DISPI_INDEX_VIRT_HEIGHT, height);
	dispi_write(bochs, DISPI_INDEX_X_OFFSET, 0);
	dispi_write(bochs, DISPI_INDEX_Y_OFFSET, 0);
	dispi_write(bochs, DISPI_INDEX_ENABLE, DISPI_ENABLED | DISPI_LFB_ENABLED);
}

void garnet_bochs_disable(struct garnet_bochs *bochs)
{
	dispi_write(bochs, DISPI_INDEX_ENABLE, 0);
}

static int garnet_bochs_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct garnet_bochs *bochs;
	u16 dispi_mem_64k;
	int ret;

	mutex_lock(&bochs_lock);
	ret = bound_bochs ? -EBUSY : 0;
	mutex_unlock(&bochs_lock);
	if (ret) {
		dev_info(&pdev->dev, "garnet already drives a display; leaving this one alone\n");
		return -EBUSY;
	}

	bochs = devm_kzalloc(&pdev->dev, sizeof(*bochs), GFP_KERNEL);
	if (!bochs)
		return -ENOMEM;
	bochs->pdev = pdev;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(2), "garnet");
	if (ret) {
		dev_err(&pdev->dev, "cannot claim the MMIO BAR: %d\n", ret);
		return ret;
	}
	bochs->mmio = pcim_iomap_table(pdev)[2];

	bochs->dispi_id = dispi_read(bochs, DISPI_INDEX_ID);
	if (bochs->dispi_id < DISPI_ID_FIRST || bochs->dispi_id > DISPI_ID_LAST) {
		dev_err(&pdev->dev, "unknown DISPI id 0x%04x\n", bochs->dispi_id);
		return -ENODEV;
	}

	/* The device reports its memory in 64 KiB units; trust the smaller of that and the BAR. */
	bochs->vram_size = pci_resource_len(pdev, 0);
	dispi_mem_64k = dispi_read(bochs, DISPI_INDEX_VIDEO_MEMORY_64K);
	if (dispi_mem_64k && (size_t)dispi_mem_64k * SZ_64K < bochs->vram_size)
		bochs->vram_size = (size_t)dispi_mem_64k * SZ_64K;
	if (!devm_request_mem_region(&pdev->dev, pci_resource_start(pdev, 0), bochs->vram_size,
				     "garnet-vram"))
		return -EBUSY;
	bochs->vram = devm_ioremap_wc(&pdev->dev, pci_resource_start(pdev, 0), bochs->vram_size);
	if (!bochs->vram)
		return -ENOMEM;

	/* Pixels are stored little-endian (XRGB8888 in memory order B, G, R, X). */
	if (readl(bochs->mmio + QEXT_MMIO_BASE + QEXT_SIZE) >= QEXT_BYTEORDER + 4)
		writel(QEXT_LITTLE_ENDIAN, bochs->mmio + QEXT_MMIO_BASE + QEXT_BYTEORDER);

	garnet_bochs_disable(bochs);
	pci_set_drvdata(pdev, bochs);
	mutex_lock(&bochs_lock);
	bound_bochs = bochs;
	mutex_unlock(&bochs_lock);
	dev_info(&pdev->dev, "bochs-display: DISPI 0x%04x, %zu KiB VRAM\n", bochs->dispi_id,
		 bochs->vram_size >> 10);
	return 0;
}

static void garnet_bochs_remove(struct pci_dev *pdev)
{
	struct garnet_bochs *bochs = pci_get_drvdata(pdev);

	mutex_lock(&bochs_lock);
	if (bound_bochs == bochs) {
		/* Waits for a composition in progress; the display touches neither again. */
		if (bochs_user)
			garnet_scanout_unplug(bochs_user);
		bochs_user = NULL;
		bound_bochs = NULL;
	}
	garnet_bochs_disable(bochs);
	mutex_unlock(&bochs_lock);
}

static const struct pci_device_id garnet_bochs_ids[] = {
	{ PCI_DEVICE(BOCHS_VENDOR_ID, BOCHS_DISPLAY_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, garnet_bochs_ids);

/*
 * The DRM device is created once, after this driver has had the chance to bind (probing is
 * synchronous), and lives until the module unloads. Unbinding through the driver's sysfs is
 * not offered; removing the device still is (see garnet_bochs_remove()).
 */
static struct pci_driver garnet_bochs_driver = {
	.name		= "garnet",
	.id_table	= garnet_bochs_ids,
	.probe		= garnet_bochs_probe,
	.remove		= garnet_bochs_remove,
	.driver		= {
		.suppress_bind_attrs = true,
	},
};

int garnet_bochs_register(void)
{
	return pci_register_driver(&garnet_bochs_driver);
}

void garnet_bochs_unregister(void)
{
	pci_unregister_driver(&garnet_bochs_driver);
}

/* The bound device for this display, which remove will unplug from it first; or NULL. */
struct garnet_bochs *garnet_bochs_attach(struct garnet_kms *kms)
{
	struct garnet_bochs *bochs;

	mutex_lock(&bochs_lock);
	bochs = bound_bochs;
	if (bochs)
		bochs_user = kms;
	mutex_unlock(&bochs_lock);
	return bochs;
}

/* Before the display's memory goes. */
void garnet_bochs_detach(struct garnet_kms *kms)
{
	mutex_lock(&bochs_lock);
	if (bochs_user == kms)
		bochs_user = NULL;
	mutex_unlock(&bochs_lock);
}
