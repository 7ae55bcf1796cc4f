entry @mmas_e2m1_e4m3_b16(%arg0: tile<ptr<f4E2M1FN>>, %arg1: tile<ptr<f4E2M1FN>>, %arg2: tile<ptr<f8E4M3FN>>, %arg3: tile<ptr<f8E4M3FN>>, %arg4: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f4E2M1FN>>
  %5 = make_tensor_view %4, shape = [64, 128], strides = [128, 1] : tensor_view<64x128xf4E2M1FN, strides=[128,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x128), padding_value = zero, tensor_view<64x128xf4E2M1FN, strides=[128,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<64x128xf4E2M1FN, strides=[128,1]>>, tile<i32> -> tile<64x128xf4E2M1FN>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f4E2M1FN>>
  %10 = make_tensor_view %9, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf4E2M1FN, strides=[64,1]>
  %11 = make_partition_view %10 : partition_view<tile=(128x64), padding_value = zero, tensor_view<128x64xf4E2M1FN, strides=[64,1]>>
  %12, %13 = load_view_tko weak %11[%1, %2] token = %8 : partition_view<tile=(128x64), padding_value = zero, tensor_view<128x64xf4E2M1FN, strides=[64,1]>>, tile<i32> -> tile<128x64xf4E2M1FN>, token
  %14 = assume div_by<16>, %arg2 : tile<ptr<f8E4M3FN>>
  %15 = make_tensor_view %14, shape = [64, 8], strides = [8, 1] : tensor_view<64x8xf8E4M3FN, strides=[8,1]>
  %16 = make_partition_view %15 : partition_view<tile=(64x8), padding_value = zero, tensor_view<64x8xf8E4M3FN, strides=[8,1]>>
  %17, %18 = load_view_tko weak %16[%1, %2] token = %13 : partition_view<tile=(64x8), padding_value = zero, tensor_view<64x8xf8E4M3FN, strides=[8,1]>>, tile<i32> -> tile<64x8xf8E4M3FN>, token
  %19 = assume div_by<16>, %arg3 : tile<ptr<f8E4M3FN>>
  %20 = make_tensor_view %19, shape = [8, 64], strides = [64, 1] : tensor_view<8x64xf8E4M3FN, strides=[64,1]>
  %21 = make_partition_view %20 : partition_view<tile=(8x64), padding_value = zero, tensor_view<8x64xf8E4M3FN, strides=[64,1]>>
  %22, %23 = load_view_tko weak %21[%1, %2] token = %18 : partition_view<tile=(8x64), padding_value = zero, tensor_view<8x64xf8E4M3FN, strides=[64,1]>>, tile<i32> -> tile<8x64xf8E4M3FN>, token
  %24 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %25 = mmaf_scaled %7, %12, %24, %17, %22 : tile<64x128xf4E2M1FN>, tile<128x64xf4E2M1FN>, tile<64x64xf32>, tile<64x8xf8E4M3FN>, tile<8x64xf8E4M3FN>
  %26 = assume div_by<16>, %arg4 : tile<ptr<f32>>
  %27 = make_tensor_view %26, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %28 = make_partition_view %27 : partition_view<tile=(64x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %29 = store_view_tko weak %25, %28[%1, %2] token = %23 : tile<64x64xf32>, partition_view<tile=(64x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
